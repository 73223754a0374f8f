// Review bombing holds: when one subject gets an unusual number of one- and two-star reviews, its
// new reviews are held as pending. Each hold shows the figures that opened it and the reviews it
// holds (each opens on its review's page, where it is approved or rejected, as every pending review
// in the verification queue is); a member releases it. The tab is the URL's `status`.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { setQuery } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, Empty, ErrorNotice, Loading, Notice, PageHeader, Pager, Stars } from '../../ui/components.tsx';
import { useQueryFilters } from '../../ui/filters.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { ReleaseHold } from '../../ui/release-hold.tsx';
import { HoldThresholds } from './thresholds.tsx';
import { StatusTabs } from '../../ui/status-tabs.tsx';

type Hold = Schemas['Hold'];

const FILTERS = ['status', 'page'] as const;
const TABS = [['open', 'Open'], ['released', 'Released']] as const;

export function Holds(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const { filters, key } = useQueryFilters(FILTERS);
  const tab = TABS.find(([value]) => value === filters.status)?.[0] ?? 'open';
  const [done, setDone] = useState(false);
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/holds', {
        params: { orgId },
        query: { status: tab, page: Number(filters.page) || 1, limit: 20 },
        signal,
      }),
    [orgId, key],
  );
  const shown = list.data?.data ?? [];
  return (
    <>
      <PageHeader title='Holds' />
      <Intro />
      <StatusTabs label='Holds by status' tabs={TABS} current={tab} onPick={() => setDone(false)} />
      {done && <Released />}
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading holds' />}
      {list.data && shown.length === 0 && (
        <Empty>{tab === 'open' ? 'No open holds: reviews publish as usual.' : 'No released holds yet.'}</Empty>
      )}
      {list.data && shown.length > 0 && (
        <div class='reports' aria-busy={list.loading}>
          {shown.map((h) => (
            <HoldCard
              key={h.id}
              hold={h}
              onReleased={() => {
                setDone(true);
                list.reload();
              }}
            />
          ))}
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </div>
      )}
      <HoldThresholds />
    </>
  );
}

/** One hold, where the admins' mail leads. */
export function HoldPage({ params }: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const [done, setDone] = useState(false);
  const hold = useLoad(
    (signal) => api.get('/organizations/{orgId}/holds/{id}', { params: { orgId, id: params.id }, signal }),
    [orgId, params.id],
  );
  return (
    <>
      <PageHeader title='Hold'>
        <a href={appPath('/holds')}>All holds</a>
      </PageHeader>
      <Intro />
      {done && <Released />}
      <ErrorNotice error={hold.error} />
      {hold.loading && !hold.data && <Loading what='Loading the hold' />}
      {hold.data && (
        <HoldCard
          hold={hold.data}
          onReleased={() => {
            setDone(true);
            hold.reload();
          }}
        />
      )}
    </>
  );
}

const Intro = () => (
  <p class='muted section-intro'>
    When one subject gets an unusual number of one- and two-star reviews, Plaudit holds its new reviews as pending and
    its public pages say that recent reviews are being checked. Nothing published is hidden or deleted. Release the hold
    when you have looked, then approve or reject each held review.
  </p>
);

const Released = () => (
  <Notice tone='success'>
    The hold is released: new reviews publish as usual. Approve or reject the reviews it held.
  </Notice>
);

const SUBJECT_KIND = { business: 'Your business', product: 'Product', group: 'Product group' } as const;

function HoldCard({ hold, onReleased }: { hold: Hold; onReleased: () => void }) {
  const appPath = useAppPath();
  const f = hold.figures;
  const heading = `hold-${hold.id}`;
  const pending = hold.held_reviews.filter((r) => r.verification_status === 'pending').length;
  return (
    <article class='card report' aria-labelledby={heading}>
      <h2 id={heading} class='report-reason'>
        {SUBJECT_KIND[hold.subject.kind]}
        {hold.subject.kind !== 'business' && `: ${hold.subject.name ?? hold.subject.group}`}{' '}
        {hold.status === 'open' ? <Badge tone='warn'>holding new reviews</Badge> : <Badge>released</Badge>}
        <span class='muted small'>since {formatDateTime(hold.started_at)}</span>
      </h2>
      <dl class='meta hold-figures'>
        <dt>One- and two-star reviews in the hour</dt>
        <dd>{f.low_ratings} of {f.reviews}</dd>
        <dt>From client addresses</dt>
        <dd>{f.client_addresses}</dd>
        <dt>Usual hourly number (28-day median)</dt>
        <dd>{f.hourly_median_28_days}</dd>
        <dt>The hour looked at</dt>
        <dd>{formatDateTime(f.window_start)} to {formatDateTime(f.window_end)}</dd>
        <dt>Thresholds</dt>
        <dd>
          {f.thresholds.min_reviews} reviews, {f.thresholds.min_addresses} addresses,{' '}
          {f.thresholds.median_factor}× the median, {Math.round(f.thresholds.min_low_share * 100)}{' '}
          % of the hour's reviews
        </dd>
      </dl>
      <h3 class='small-heading'>Held reviews ({hold.held_reviews.length}, {pending} waiting)</h3>
      {hold.held_reviews.length === 0
        ? <p class='muted'>No review was submitted while it was open.</p>
        : (
          <ul class='held-list'>
            {hold.held_reviews.map((r) => (
              <li key={r.id}>
                <Stars rating={r.rating} /> {r.title && <strong>{r.title}</strong>}{' '}
                <span class='report-content'>{r.content}</span>
                <span class='muted small'>
                  {` — ${r.reviewer_name}, ${formatDateTime(r.created_at)} · `}
                  <a href={appPath(`/reviews/${r.id}`)}>
                    {r.verification_status === 'pending' ? 'Approve or reject' : `Open (${r.verification_status})`}
                  </a>
                </span>
              </li>
            ))}
          </ul>
        )}
      <p class='small'>
        <a href={appPath('/reviews?verification_status=pending')}>All reviews awaiting verification</a>
      </p>
      {hold.status === 'open' ? <ReleaseHold holdId={hold.id} onReleased={onReleased} /> : (
        <p class='report-resolution'>
          <strong>Released</strong> {formatDateTime(hold.released_at)}.
        </p>
      )}
    </article>
  );
}
