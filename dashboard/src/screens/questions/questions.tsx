// Shoppers' questions about products and the business: published, waiting for their asker's
// confirmation, or hidden, and optionally only the unanswered ones. Each is answered as the business
// or hidden/shown again with reasons. The tab and the filter are the URL's, so a view can be bookmarked.
import { api } from '../../api.ts';
import { setQuery } from '../../router.ts';
import { useOrgId } from '../../session.ts';
import { Empty, ErrorNotice, Loading, PageHeader, Pager } from '../../ui/components.tsx';
import { CheckboxField } from '../../ui/fields.tsx';
import { useQueryFilters } from '../../ui/filters.tsx';
import { useLoad } from '../../ui/hooks.ts';
import { QuestionCard } from './question-card.tsx';
import { StatusTabs } from '../../ui/status-tabs.tsx';

const FILTERS = ['status', 'answered', 'page'] as const;
const TABS = [['published', 'Published'], ['pending', 'Waiting for confirmation'], ['hidden', 'Hidden']] as const;
type Status = typeof TABS[number][0];

const EMPTY: Record<Status, string> = {
  published: 'No published questions yet.',
  pending: 'No question waits for its asker’s confirmation.',
  hidden: 'No hidden questions.',
};

export function Questions(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const { filters, key } = useQueryFilters(FILTERS);
  const status: Status = TABS.find(([v]) => v === filters.status)?.[0] ?? 'published';
  const unanswered = filters.answered === 'false';
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/questions', {
        params: { orgId },
        query: { status, answered: unanswered ? 'false' : undefined, page: Number(filters.page) || 1, limit: 20 },
        signal,
      }),
    [orgId, key],
  );
  return (
    <>
      <PageHeader title='Questions' />
      <p class='muted section-intro'>
        Shoppers ask about your products (or your business) on your product pages and in the widget. A question shows
        once its asker confirms it by e-mail; customers who bought the product are asked to answer it, and you can
        answer it yourself. Hide what does not belong, with your reasons.
      </p>
      <StatusTabs label='Questions by status' tabs={TABS} current={status} />
      <CheckboxField
        id='q-unanswered'
        label='Unanswered only'
        checked={unanswered}
        onChecked={(on) => setQuery({ answered: on ? 'false' : null, page: null }, false)}
      />
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading questions' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>{unanswered ? 'No unanswered questions here.' : EMPTY[status]}</Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <div class='questions' aria-busy={list.loading}>
          {list.data.data.map((q) => <QuestionCard key={q.id} question={q} onChanged={list.reload} />)}
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </div>
      )}
    </>
  );
}
