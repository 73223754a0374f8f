// The review bombing thresholds, below the holds: what makes a burst. Admins change them; everyone
// else reads them. The API refuses a key, so only this form (a signed-in admin) changes them.
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useOrgId, useWorkspace } from '../../session.ts';
import { ErrorNotice, Loading } from '../../ui/components.tsx';
import { NumberField } from '../../ui/fields.tsx';
import { useAction, useLoad } from '../../ui/hooks.ts';
import { SettingsForm } from '../../ui/settings-form.tsx';

type Thresholds = Schemas['HoldSettings'];
type Draft = Record<'reviews' | 'addresses' | 'factor' | 'share', string>;

const draftOf = (s: Thresholds): Draft => ({
  reviews: String(s.min_reviews),
  addresses: String(s.min_addresses),
  factor: String(s.median_factor),
  share: String(Math.round(s.min_low_share * 100)),
});

/** The rule in one sentence, as the detection applies it. */
const ruleOf = (s: Thresholds) =>
  `A burst is at least ${s.min_reviews} one- and two-star reviews of one subject within an hour, from at least ${s.min_addresses} client addresses (and as many without the busiest one), at least ${s.median_factor}× its usual hourly number and ${
    Math.round(s.min_low_share * 100)
  } % of its reviews in that hour.`;

export function HoldThresholds() {
  const orgId = useOrgId();
  const { isAdmin } = useWorkspace();
  const settings = useLoad(
    (signal) => api.get('/organizations/{orgId}/holds/settings', { params: { orgId }, signal }),
    [orgId],
  );
  const [draft, setDraft] = useState<Draft>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (settings.data) setDraft(draftOf(settings.data));
  }, [settings.data]);
  const save = useAction(async () => {
    const s = await api.patch('/organizations/{orgId}/holds/settings', {
      params: { orgId },
      body: {
        min_reviews: Number(draft!.reviews),
        min_addresses: Number(draft!.addresses),
        median_factor: Number(draft!.factor),
        min_low_share: Number(draft!.share) / 100,
      },
    });
    settings.set(s);
    setSaved(true);
  });
  const edit = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft({ ...draft!, ...patch });
  };
  const s = settings.data;
  return (
    <section class='card hold-thresholds' aria-labelledby='hold-thresholds'>
      <h2 id='hold-thresholds'>When reviews are held</h2>
      <ErrorNotice error={settings.error} />
      {!s && !settings.error && <Loading what='Loading the thresholds' />}
      {s && <p>{ruleOf(s)}</p>}
      {s && !isAdmin && <p class='muted small'>Only the organization's owners and admins can change them.</p>}
      {s && draft && isAdmin && (
        <SettingsForm
          save={save}
          saved={saved}
          savedText='The thresholds are saved. The next check uses them.'
          submitLabel='Save thresholds'
        >
          <NumberField
            label='One- and two-star reviews in an hour'
            name='min_reviews'
            error={save.error}
            hint='2 to 100,000. Raise it if ordinary days come near it.'
            min={2}
            max={100000}
            required
            value={draft.reviews}
            onValue={(v) => edit({ reviews: v })}
          />
          <NumberField
            label='From client addresses'
            name='min_addresses'
            error={save.error}
            hint='2 to 100,000. Reviews sent from one address never make a burst.'
            min={2}
            max={100000}
            required
            value={draft.addresses}
            onValue={(v) => edit({ addresses: v })}
          />
          <NumberField
            label='Times the usual hourly number'
            name='median_factor'
            error={save.error}
            hint="1 to 1,000, against the subject's median hour of the last 28 days."
            min={1}
            max={1000}
            step='any'
            inputMode='decimal'
            required
            value={draft.factor}
            onValue={(v) => edit({ factor: v })}
          />
          <NumberField
            label="Share of the hour's reviews (%)"
            name='min_low_share'
            error={save.error}
            hint='0 to 100. A sale brings praise with its few low ratings: those are not a burst.'
            min={0}
            max={100}
            required
            value={draft.share}
            onValue={(v) => edit({ share: v })}
          />
        </SettingsForm>
      )}
    </section>
  );
}
