// Visitors' reports of published reviews: the open ones to look at, the resolved ones with what
// was done. The tab is the URL's `status`, so a view can be bookmarked. A report hides nothing.
import { useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { setQuery } from '../../router.ts';
import { useOrgId } from '../../session.ts';
import { Empty, ErrorNotice, Loading, Notice, PageHeader, Pager } from '../../ui/components.tsx';
import { useQueryFilters } from '../../ui/filters.tsx';
import { useLoad } from '../../ui/hooks.ts';
import { ReportCard } from './report-card.tsx';

const FILTERS = ['status', 'page'] as const;
const TABS = [['open', 'Open'], ['resolved', 'Resolved']] as const;

export function Reports(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const { filters, key } = useQueryFilters(FILTERS);
  const status = filters.status === 'resolved' ? 'resolved' : 'open';
  const [resolved, setResolved] = useState<string>();
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/reports', {
        params: { orgId },
        query: { status, page: Number(filters.page) || 1, limit: 20 },
        signal,
      }),
    [orgId, key],
  );
  const members = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/members', { params: { orgId }, query: { limit: 100 }, signal }).catch(() => null),
    [orgId],
  );
  const names = new Map((members.data?.data ?? []).map((m) => [m.id, m.name || m.email]));
  return (
    <>
      <PageHeader title='Reports' />
      <p class='muted section-intro'>
        Visitors can report a published review from your pages and widget. A report never hides a review: read it, open
        the review to hide it or reply if it needs it, then resolve the report with what you did.
      </p>
      <nav class='tabs' aria-label='Reports by status'>
        <ul>
          {TABS.map(([value, label]) => (
            <li key={value}>
              <a
                href={`?status=${value}`}
                aria-current={status === value ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  setResolved(undefined);
                  setQuery({ status: value, page: null }, false);
                }}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {resolved && <Notice tone='success'>The report is resolved: {resolved}</Notice>}
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading reports' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>{status === 'open' ? 'No open reports: nothing waits for you.' : 'No resolved reports yet.'}</Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <div class='reports' aria-busy={list.loading}>
          {list.data.data.map((r) => (
            <ReportCard
              key={r.id}
              report={r}
              members={names}
              onResolved={(done) => {
                setResolved(done.resolution ?? '');
                list.reload();
              }}
            />
          ))}
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </div>
      )}
    </>
  );
}
