// One review request: its details, its timeline, and stopping requests to its address.
import { api, type ItemIds } from '../../api.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { ErrorNotice, Loading, PageHeader } from '../../ui/components.tsx';
import { Confirm } from '../../ui/confirm.tsx';
import { formatDate, formatDateTime, formatNumber } from '../../ui/format.ts';
import { useAction, useLoad } from '../../ui/hooks.ts';
import { StatusBadge } from './status-badge.tsx';
import { RequestTabs } from './tabs.tsx';
import { useForms } from '../../ui/use-forms.ts';
import { eventWords, SUPPRESSION_REASON } from './words.ts';

export function RequestPage({ params }: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const ids: ItemIds = { orgId, id: params.id };
  const item = useLoad(
    (signal) => api.get('/organizations/{orgId}/review-requests/{id}', { params: ids, signal }),
    [orgId, params.id],
  );
  const forms = useForms();

  if (item.error) {
    return (
      <>
        <PageHeader title='Review request' />
        <RequestTabs />
        <ErrorNotice error={item.error} />
        <p>
          <a href={appPath('/requests')}>Back to the review requests</a>
        </p>
      </>
    );
  }
  if (!item.data) return <Loading what='Loading the request' />;
  const r = item.data;
  const form = forms.data?.data.find((f) => f.id === r.form_id);
  const when = (at: string | null, extra?: string) =>
    at ? `${formatDateTime(at)}${extra ? ` · ${extra}` : ''}` : <span class='muted'>Not yet</span>;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/requests')}>Review requests</a>
      </p>
      <header class='page-header'>
        <div class='rr-title'>
          <h1 tabIndex={-1}>Request to {r.name}</h1>
          <StatusBadge status={r.status} />
        </div>
      </header>
      <RequestTabs />
      <div class='review-grid'>
        <section class='card' aria-labelledby='rr-facts'>
          <h2 id='rr-facts'>Details</h2>
          <dl class='facts'>
            <dt>Customer</dt>
            <dd>
              {r.name} · <a href={`mailto:${r.email}`}>{r.email}</a>
            </dd>
            <dt>Review form</dt>
            <dd>{form ? <a href={appPath(`/forms/${form.id}`)}>{form.name}</a> : 'A deleted form'}</dd>
            <dt>Order reference</dt>
            <dd>
              {r.order_id
                ? <a href={appPath(`/orders/${encodeURIComponent(r.order_id)}`)}>{r.order_id}</a>
                : <span class='muted'>None</span>}
            </dd>
            <dt>Your reference</dt>
            <dd>{r.external_id ?? <span class='muted'>None</span>}</dd>
            <dt>Language</dt>
            <dd>
              {r.locale === 'de' || r.locale.startsWith('de-')
                ? 'German'
                : `English${r.locale === 'en' ? '' : ` (${r.locale})`}`}
            </dd>
            <dt>Created</dt>
            <dd>{formatDateTime(r.created_at)}</dd>
            {r.status === 'queued' && (
              <>
                <dt>Goes out</dt>
                <dd>{formatDateTime(r.send_at)}</dd>
              </>
            )}
            <dt>Sent</dt>
            <dd>{when(r.sent_at)}</dd>
            <dt>Delivered</dt>
            <dd>{when(r.delivered_at)}</dd>
            <dt>Opened</dt>
            <dd>{when(r.opened_at, r.open_count > 1 ? `${formatNumber(r.open_count)} times` : undefined)}</dd>
            <dt>Clicked</dt>
            <dd>{when(r.clicked_at, r.click_count > 1 ? `${formatNumber(r.click_count)} times` : undefined)}</dd>
            <dt>Reviewed</dt>
            <dd>
              {r.completed_at
                ? (
                  <>
                    {formatDateTime(r.completed_at)}
                    {r.review_id && (
                      <>
                        {' · '}
                        <a href={appPath(`/reviews/${r.review_id}`)}>Read the review</a>
                      </>
                    )}
                  </>
                )
                : <span class='muted'>Not yet</span>}
            </dd>
            <dt>Reminders sent</dt>
            <dd>{formatNumber(r.reminders_sent)}</dd>
          </dl>
        </section>
        <aside class='side'>
          <section class='card' aria-labelledby='rr-timeline'>
            <h2 id='rr-timeline'>Timeline</h2>
            {r.events.length === 0 && <p class='muted'>Nothing has happened yet.</p>}
            <ol class='trail rr-timeline'>
              {r.events.map((e, i) => {
                const w = eventWords(e);
                return (
                  <li key={i}>
                    <strong>{w.title}</strong> · {formatDateTime(e.occurred_at)}
                    {w.detail && <p class='trail-reason muted'>{w.detail}</p>}
                    {e.type === 'completed' && e.data.review_id && (
                      <p class='trail-reason'>
                        <a href={appPath(`/reviews/${e.data.review_id}`)}>Read the review</a>
                      </p>
                    )}
                  </li>
                );
              })}
            </ol>
            <button type='button' class='button' onClick={item.reload} disabled={item.loading}>
              {item.loading ? 'Refreshing…' : 'Refresh'}
            </button>
          </section>
          <SuppressAddress email={r.email} />
        </aside>
      </div>
    </>
  );
}

/** Whether the address may be asked again, and a way to stop asking it. */
function SuppressAddress({ email }: { email: string }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const listed = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/suppressions', { params: { orgId }, query: { email, limit: 1 }, signal }),
    [orgId, email],
  );
  const add = useAction(async () => {
    await api.post('/organizations/{orgId}/suppressions', { params: { orgId }, body: { email } });
    listed.reload();
  });
  const entry = listed.data?.data[0];
  return (
    <section class='card' aria-labelledby='rr-suppress'>
      <h2 id='rr-suppress'>Future requests</h2>
      <ErrorNotice error={listed.error ?? add.error} />
      {listed.data && entry && (
        <p>
          {email} is on your suppression list ({SUPPRESSION_REASON[entry.reason].toLowerCase()}, since{' '}
          {formatDate(entry.created_at)}): it gets no review requests or reminders.{' '}
          <a href={appPath('/requests/settings')}>Manage the list</a>
        </p>
      )}
      {listed.data && !entry && (
        <>
          <p class='muted small'>
            {email} may be asked again by a later request. Stop it if the customer asked you not to write.
          </p>
          <Confirm
            label='Stop review requests to this address'
            question={
              <>
                Add {email}{' '}
                to the suppression list? Queued requests and reminders to it are withdrawn; you can lift it later in the
                settings.
              </>
            }
            confirm='Yes, stop requests'
            pending={add.pending}
            onConfirm={() => void add.run()}
          />
        </>
      )}
    </section>
  );
}
