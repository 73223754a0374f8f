// The public profile page and the embeddable widget: what the page shows about the business, how
// the widget looks, a live preview of the real widget (unsaved changes included), and the snippet
// to paste into a site.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, apiUrl, type Schemas } from '../api.ts';
import { useOrgId, useWorkspace } from '../session.ts';
import { Badge, CopyField, ErrorNotice, Loading, Notice, PageHeader } from '../ui/components.tsx';
import { ChoiceGroup, NumberField, SelectField, TextAreaField, TextField } from '../ui/fields.tsx';
import { useAction, useLoad } from '../ui/hooks.ts';
import { type MediaModeration, MediaModerationSetting } from '../ui/media-moderation-setting.tsx';
import { ReviewPolicySetting } from '../ui/review-policy-setting.tsx';
import { ProductSnippets } from '../ui/product-snippets.tsx';
import { plaudit, useWidgetScript } from '../ui/widget-script.ts';

type Settings = Schemas['PublicProfileSettings'];
type Embed = Schemas['PublicEmbed'];
type Layout = Settings['embed']['layout'];
type Theme = Settings['embed']['theme'];

const LAYOUTS: [Layout, string, string][] = [
  ['list', 'List', 'Reviews one under another.'],
  ['grid', 'Grid', 'Cards side by side, as many columns as fit.'],
  ['carousel', 'Carousel', 'One row of cards that visitors scroll sideways.'],
];
const THEMES: [Theme, string, string][] = [
  ['light', 'Light', 'Dark text on white, for light pages.'],
  ['dark', 'Dark', 'Light text on a dark background, for dark pages.'],
];
const RATINGS: [number, string][] = [
  [1, 'All reviews'],
  [2, '2 stars and more'],
  [3, '3 stars and more'],
  [4, '4 stars and more'],
  [5, 'Only 5 stars'],
];

interface Draft {
  enabled: boolean;
  display_name: string;
  description: string;
  website: string;
  logo_url: string;
  layout: Layout;
  theme: Theme;
  max_reviews: string;
  min_rating: number;
  google_product_feed: boolean;
  meta_review_feed: boolean;
  media_moderation: MediaModeration;
  review_policy: string;
}

function draftOf(s: Settings): Draft {
  return {
    enabled: s.enabled,
    display_name: s.display_name ?? '',
    description: s.description ?? '',
    website: s.website ?? '',
    logo_url: s.logo_url ?? '',
    layout: s.embed.layout,
    theme: s.embed.theme,
    max_reviews: String(s.embed.max_reviews),
    min_rating: s.embed.min_rating,
    google_product_feed: s.google_product_feed,
    meta_review_feed: s.meta_review_feed,
    media_moderation: s.media_moderation,
    review_policy: s.review_policy ?? '',
  };
}

const orNull = (s: string) => s.trim() || null;

/** The number of reviews typed, when it is one the widget takes. */
function maxOf(s: string): number | undefined {
  const n = Number(s);
  return s.trim() && Number.isInteger(n) && n >= 1 && n <= 100 ? n : undefined;
}

/**
 * The public embed answer as the widget reads it (no cookie), revalidated: the browser's cache then
 * holds the current answer, which the widget's own request reads.
 */
async function loadEmbed(slug: string, signal?: AbortSignal): Promise<Embed> {
  const res = await fetch(apiUrl(`/public/embed/${encodeURIComponent(slug)}`), {
    credentials: 'omit',
    cache: 'no-cache',
    signal,
  });
  if (!res.ok) throw new ApiError(res.status, 'The widget’s settings could not be read. Reload the page to try again.');
  return await res.json() as Embed;
}

export function WidgetSettings(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const { org } = useWorkspace();
  const settings = useLoad(
    (signal) => api.get('/organizations/{orgId}/public-profile', { params: { orgId }, signal }),
    [orgId],
  );
  const embed = useLoad((signal) => loadEmbed(org.slug, signal), [org.slug]);

  return (
    <>
      <PageHeader title='Widget and public page'>
        <a class='button' href={embed.data?.url ?? `/p/${encodeURIComponent(org.slug)}`} target='_blank' rel='noopener'>
          View your public page <span class='visually-hidden'>(opens in a new tab)</span>
        </a>
      </PageHeader>
      <p class='muted page-intro'>
        Your public page lists your reviews at one address; the widget shows the latest ones on your own site. Both show
        only published reviews.
      </p>
      <ErrorNotice error={settings.error} />
      {!settings.data && !settings.error && <Loading what='Loading the settings' />}
      {settings.data && (
        <Editor
          saved={settings.data}
          embed={embed.data}
          onSaved={(s) => {
            settings.set(s);
            embed.reload();
          }}
        />
      )}
      <Snippet embed={embed.data} error={embed.error} />
    </>
  );
}

function Editor({ saved, embed, onSaved }: { saved: Settings; embed?: Embed; onSaved: (s: Settings) => void }) {
  const orgId = useOrgId();
  const { org, isAdmin } = useWorkspace();
  const [d, setD] = useState(() => draftOf(saved));
  const [notice, setNotice] = useState('');
  const ref = useRef<HTMLFormElement>(null);
  const set = (change: Partial<Draft>) => {
    setNotice('');
    setD((old) => ({ ...old, ...change }));
  };
  const save = useAction(async () => {
    const max = Number(d.max_reviews);
    const s = await api.patch('/organizations/{orgId}/public-profile', {
      params: { orgId },
      body: {
        enabled: d.enabled,
        display_name: orNull(d.display_name),
        description: orNull(d.description),
        website: orNull(d.website),
        logo_url: orNull(d.logo_url),
        embed: {
          layout: d.layout,
          theme: d.theme,
          // An emptied field goes as null, which the API refuses with its message at the field: the
          // document's type has no null, and that refusal is the point.
          max_reviews: (d.max_reviews.trim() && Number.isFinite(max) ? max : null) as number,
          min_rating: d.min_rating,
        },
        google_product_feed: d.google_product_feed,
        meta_review_feed: d.meta_review_feed,
        media_moderation: d.media_moderation,
        review_policy: orNull(d.review_policy),
      },
    });
    setD(draftOf(s));
    onSaved(s);
    setNotice(
      s.enabled
        ? 'Saved. Visitors of your site and your public page see the change within a few minutes.'
        : 'Saved. Your public profile is off: your public page is not found and the widget shows nothing.',
    );
  });
  useEffect(() => {
    if (save.error) (ref.current?.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus();
  }, [save.error]);

  const err = save.error;
  const unsaved = JSON.stringify(d) !== JSON.stringify(draftOf(saved));
  const logo = d.logo_url.trim();

  return (
    <form
      ref={ref}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      {!isAdmin && (
        <Notice>
          Only owners and admins can change these settings. You can look at the preview and copy the snippet.
        </Notice>
      )}
      <fieldset class='plain-fieldset' disabled={!isAdmin}>
        <section class='card' aria-labelledby='profile-heading'>
          <h2 id='profile-heading'>Public profile</h2>
          <label class='opt-check'>
            <input type='checkbox' checked={d.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
            <span>
              Public profile on
              <span class='hint'>
                When off, your public page is not found and the widget shows nothing on your site. Reviews are kept.
              </span>
            </span>
          </label>
          <div class='settings-grid'>
            <TextField
              label='Display name'
              name='display_name'
              error={err}
              hint={`Leave empty to show your organization's name, ${org.name}.`}
              maxLength={200}
              placeholder={org.name}
              value={d.display_name}
              onValue={(v) => set({ display_name: v })}
            />
            <TextField
              label='Website'
              name='website'
              error={err}
              hint="Linked from your public page. Leave empty to use your organization's website."
              type='url'
              inputMode='url'
              maxLength={2048}
              placeholder='https://'
              value={d.website}
              onValue={(v) => set({ website: v })}
            />
          </div>
          <TextAreaField
            label='Description'
            name='description'
            error={err}
            hint='A few sentences about your business, shown at the top of your public page.'
            rows={3}
            maxLength={2000}
            value={d.description}
            onValue={(v) => set({ description: v })}
          />
          <div class='logo-row'>
            <TextField
              label='Logo address'
              name='logo_url'
              error={err}
              hint='The https:// address of an image (square looks best), shown on your public page.'
              type='url'
              inputMode='url'
              maxLength={2048}
              placeholder='https://'
              value={d.logo_url}
              onValue={(v) => set({ logo_url: v })}
            />
            {/^https:\/\/\S+$/.test(logo) && <img class='logo-preview' src={logo} alt='Your logo' />}
          </div>
        </section>

        <MediaModerationSetting value={d.media_moderation} onValue={(v) => set({ media_moderation: v })} />
        <ReviewPolicySetting
          value={d.review_policy}
          onValue={(v) => set({ review_policy: v })}
          error={err}
          slug={org.slug}
        />
        <section class='card' aria-labelledby='google-heading'>
          <h2 id='google-heading'>Product rating feeds</h2>
          <label class='opt-check'>
            <input
              type='checkbox'
              checked={d.google_product_feed}
              onChange={(e) => set({ google_product_feed: e.currentTarget.checked })}
            />
            <span>
              Publish a Google product reviews feed
              <span class='hint'>
                Every published review of your products, in the format Google Merchant Center reads to show star ratings
                on your products in Google Shopping. Give Merchant Center its address once it is on.
              </span>
            </span>
          </label>
          {saved.google_product_feed && saved.enabled && (
            <CopyField
              label='Google feed address'
              value={new URL(
                apiUrl(`/public/feeds/${encodeURIComponent(org.slug)}/google-product-reviews.xml`),
                location.href,
              )
                .href}
            />
          )}
          <label class='opt-check'>
            <input
              type='checkbox'
              checked={d.meta_review_feed}
              onChange={(e) => set({ meta_review_feed: e.currentTarget.checked })}
            />
            <span>
              Publish a Meta product review feed
              <span class='hint'>
                The same reviews as a CSV file in the columns of Meta's product review feed, for ratings on Facebook and
                Instagram shops.
              </span>
            </span>
          </label>
          {saved.meta_review_feed && saved.enabled && (
            <CopyField
              label='Meta feed address'
              value={new URL(
                apiUrl(`/public/feeds/${encodeURIComponent(org.slug)}/meta-product-reviews.csv`),
                location.href,
              )
                .href}
            />
          )}
        </section>

        <section class='card' aria-labelledby='widget-heading'>
          <div class='card-title-row'>
            <h2 id='widget-heading'>Widget</h2>
            {unsaved && <Badge tone='warn'>Unsaved changes</Badge>}
          </div>
          <div class='widget-layout'>
            <div>
              <ChoiceGroup
                legend='Layout'
                name='layout'
                value={d.layout}
                choices={LAYOUTS}
                onValue={(v) => set({ layout: v })}
                error={err?.field('embed.layout')}
              />
              <ChoiceGroup
                legend='Theme'
                name='theme'
                value={d.theme}
                choices={THEMES}
                onValue={(v) => set({ theme: v })}
                error={err?.field('embed.theme')}
              />
              <div class='settings-grid'>
                <NumberField
                  label='Reviews shown'
                  name='embed.max_reviews'
                  error={err}
                  hint='From 1 to 100, newest first.'
                  min={1}
                  max={100}
                  step={1}
                  value={d.max_reviews}
                  onValue={(v) => set({ max_reviews: v })}
                />
                <SelectField
                  label='Lowest rating shown'
                  name='embed.min_rating'
                  error={err}
                  value={String(d.min_rating)}
                  onValue={(v) => set({ min_rating: Number(v) })}
                  options={RATINGS}
                />
              </div>
            </div>
            <div class='preview-pane'>
              <h3 id='preview-heading'>Preview</h3>
              {!d.enabled
                ? (
                  <div class='preview-off' role='status'>
                    <strong>Your public profile is off{saved.enabled ? ' once you save' : ''}.</strong>{' '}
                    The widget shows nothing on your site and your public page is not found. Turn the profile on to show
                    your reviews.
                  </div>
                )
                : !saved.enabled
                ? (
                  <div class='preview-off' role='status'>
                    <strong>Save to switch your public profile on.</strong> The widget appears here once it is on.
                  </div>
                )
                : <Preview draft={d} embed={embed} slug={org.slug} />}
              {d.enabled && saved.enabled && (
                <p class='hint'>
                  {unsaved
                    ? 'This shows your unsaved changes; your site changes when you save.'
                    : 'As your site shows it.'}{' '}
                  {d.min_rating < saved.embed.min_rating || (maxOf(d.max_reviews) ?? 0) > saved.embed.max_reviews
                    ? 'Save to include the further reviews in the preview.'
                    : ''}
                </p>
              )}
            </div>
          </div>
        </section>

        {notice && <Notice tone='success'>{notice}</Notice>}
        {err && err.status === 422 && (
          <Notice tone='error'>The settings are not saved: correct what is said next to the fields above.</Notice>
        )}
        {err && err.status !== 422 && <ErrorNotice error={err} />}
        <div class='actions form-end'>
          <button type='submit' class='button primary' disabled={save.pending || !isAdmin}>
            {save.pending ? 'Saving…' : 'Save changes'}
          </button>
          {unsaved && (
            <button
              type='button'
              class='button'
              onClick={() => {
                save.clearError();
                setD(draftOf(saved));
              }}
            >
              Discard changes
            </button>
          )}
        </div>
      </fieldset>
    </form>
  );
}

/**
 * The real widget in a container: the draft's look as data-* attributes over the saved settings,
 * drawn again whenever one of them changes, and after a save.
 */
function Preview({ draft, embed, slug }: { draft: Draft; embed?: Embed; slug: string }) {
  const script = useWidgetScript();
  const ref = useRef<HTMLDivElement>(null);
  const max = maxOf(draft.max_reviews);
  useEffect(() => {
    if (script === 'ready' && ref.current) plaudit()!.refresh(ref.current);
  }, [script, draft.layout, draft.theme, max, draft.min_rating, embed]);
  useEffect(() => {
    const el = ref.current;
    return () => {
      if (el) plaudit()?.unmount(el);
    };
  }, []);
  if (script === 'failed') {
    return (
      <Notice tone='error'>
        The widget's script could not be loaded, so there is no preview. Reload the page to try again.
      </Notice>
    );
  }
  return (
    <div
      ref={ref}
      class={`widget-preview widget-preview-${draft.layout}`}
      data-plaudit-widget=''
      data-slug={slug}
      data-layout={draft.layout}
      data-theme={draft.theme}
      data-max-reviews={max === undefined ? undefined : String(max)}
      data-min-rating={String(draft.min_rating)}
    >
      <p class='muted'>Loading the preview…</p>
    </div>
  );
}

function Snippet({ embed, error }: { embed?: Embed; error?: ApiError }) {
  return (
    <section class='card' aria-labelledby='snippet-heading'>
      <h2 id='snippet-heading'>Add the widget to your site</h2>
      <ErrorNotice error={error} />
      {!embed && !error && <Loading what='Loading the snippet' />}
      {embed && (
        <>
          {!embed.enabled && (
            <p class='hint'>Your public profile is off: the widget shows nothing and this page is not found.</p>
          )}
          <h3>Your business’s reviews</h3>
          <p class='muted small'>
            Paste this HTML where your reviews should appear, in any page of your site or shop. It always shows your
            saved settings: you do not need to paste it again after a change.
          </p>
          <CopyField label='Widget snippet' value={embed.snippet} multiline />
          <CopyField label='Public page address' value={embed.url} />
          <ProductSnippets embed={embed} />
        </>
      )}
    </section>
  );
}
