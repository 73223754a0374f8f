// Reviewers' appeals against a hide (EU DSA Art. 20): the open ones to decide, each with the review
// and the statement of reasons it answers, decided in one step (uphold or reverse, with the
// reasons, mailed to the reviewer); the decided ones with the decision. The tab is the URL's
// `status`, so a view can be bookmarked. Only a member signed in decides: this screen is that.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { setQuery } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, Empty, ErrorNotice, Loading, Notice, PageHeader, Pager, Stars } from '../../ui/components.tsx';
import { DecisionForm } from '../../ui/decision-form.tsx';
import { useQueryFilters } from '../../ui/filters.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { StatusTabs } from '../../ui/status-tabs.tsx';

type Appeal = Schemas['Appeal'];

const FILTERS = ['status', 'page'] as const;
const TABS = [['open', 'Open'], ['reversed', 'Reversed'], ['upheld', 'Upheld']] as const;

export function Appeals(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const { filters, key } = useQueryFilters(FILTERS);
  const tab = TABS.find(([value]) => value === filters.status)?.[0] ?? 'open';
  const [done, setDone] = useState<string>();
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/appeals', {
        params: { orgId },
        query: { status: tab, page: Number(filters.page) || 1, limit: 20 },
        signal,
      }),
    [orgId, key],
  );
  const shown = list.data?.data ?? [];
  return (
    <>
      <PageHeader title='Appeals' />
      <p class='muted section-intro'>
        A reviewer whose review you hid is sent the reasons and may appeal. A person decides each appeal: uphold the
        decision, or reverse it and show the review again. Your reasons are mailed to the reviewer.
      </p>
      <StatusTabs label='Appeals by status' tabs={TABS} current={tab} onPick={() => setDone(undefined)} />
      {done && <Notice tone='success'>The appeal is decided: {done}</Notice>}
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading appeals' />}
      {list.data && shown.length === 0 && (
        <Empty>{tab === 'open' ? 'No open appeals: nothing waits for you.' : `No ${tab} appeals yet.`}</Empty>
      )}
      {list.data && shown.length > 0 && (
        <div class='reports' aria-busy={list.loading}>
          {shown.map((a) => (
            <AppealCard
              key={a.id}
              appeal={a}
              onDecided={(d) => {
                setDone(d.status === 'reversed' ? 'reversed, the review is shown again' : 'upheld');
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

function AppealCard({ appeal, onDecided }: { appeal: Appeal; onDecided: (a: Appeal) => void }) {
  const appPath = useAppPath();
  const { review, statement } = appeal;
  const heading = `appeal-${appeal.id}`;
  return (
    <article class='card report' aria-labelledby={heading}>
      <h2 id={heading} class='report-reason'>
        Appeal by {review.reviewer_name}
        <span class='muted small'>received {formatDateTime(appeal.created_at)}</span>
      </h2>
      <p class='report-details'>“{appeal.text}”</p>
      <p class='report-ground'>
        <strong>Hidden on the ground of</strong>{' '}
        {statement.ground.type === 'law' ? `the law: ${statement.ground.text}` : statement.ground.text}.{' '}
        <strong>Facts:</strong> {statement.facts}
        {statement.automated && <>{' '}(decided automatically)</>}
      </p>
      <blockquote class='report-review'>
        <p>
          <Stars rating={review.rating} /> {review.title && <strong>{review.title}</strong>}{' '}
          {review.is_hidden && <Badge>hidden</Badge>}
        </p>
        <p class='report-content'>{review.content}</p>
        <footer class='muted small'>
          {review.reviewer_name} · <a href={appPath(`/reviews/${review.id}`)}>Open the review</a>
        </footer>
      </blockquote>
      {appeal.status === 'open' ? <DecideForm appeal={appeal} onDecided={onDecided} /> : (
        <p class='report-resolution'>
          <strong>{appeal.status === 'reversed' ? 'Reversed' : 'Upheld'}</strong> {formatDateTime(appeal.decided_at)}:
          {' '}
          {appeal.resolution}
        </p>
      )}
    </article>
  );
}

function DecideForm({ appeal, onDecided }: { appeal: Appeal; onDecided: (a: Appeal) => void }) {
  const orgId = useOrgId();
  return (
    <DecisionForm
      id={appeal.id}
      name='status'
      hint='Mailed to the reviewer with the decision.'
      choices={[
        { value: 'reversed', label: 'Reverse: show the review again', tone: 'primary' },
        { value: 'upheld', label: 'Uphold: keep it hidden' },
      ] as const}
      decide={async (status, resolution) => {
        onDecided(
          await api.patch('/organizations/{orgId}/appeals/{id}', {
            params: { orgId, id: appeal.id },
            body: { status, resolution },
          }),
        );
      }}
    />
  );
}
