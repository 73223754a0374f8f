// Visitors' reports of published reviews: the open ones to decide, each with its kind and age, the
// resolved ones with the decision. The tab is the URL's `status`, so a view can be bookmarked.
import { useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { setQuery } from '../../router.ts';
import { useOrgId } from '../../session.ts';
import { Empty, ErrorNotice, Loading, Notice, PageHeader, Pager } from '../../ui/components.tsx';
import { useQueryFilters } from '../../ui/filters.tsx';
import { useLoad } from '../../ui/hooks.ts';
import { ReportCard } from './report-card.tsx';
import { StatusTabs } from '../../ui/status-tabs.tsx';

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
        Visitors can report a published review from your pages and widget, as against your policy or as illegal (a
        notice under the EU Digital Services Act, which asks you to decide in good time). Oldest open ones first deserve
        a look: decide each in one step, hiding the review or keeping it, with your reasons.
      </p>
      <StatusTabs label='Reports by status' tabs={TABS} current={status} onPick={() => setResolved(undefined)} />
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
