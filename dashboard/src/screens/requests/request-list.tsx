// The requests sent, newest first, with the filters kept in the URL and pages.
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { setQuery } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Empty, ErrorNotice, Loading, Pager } from '../../ui/components.tsx';
import { QueryDate, QuerySelect, useQueryFilters } from '../../ui/filters.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { StatusBadge } from './status-badge.tsx';
import { STATUS_LABEL } from './words.ts';

type ReviewForm = Schemas['ReviewForm'];
type ReviewRequest = Schemas['ReviewRequest'];

const FILTERS = ['status', 'email', 'form_id', 'external_id', 'startDate', 'endDate', 'page'] as const;

export function RequestList({ forms, tick }: { forms: ReviewForm[]; tick: number }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { filters, key } = useQueryFilters(FILTERS);
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/review-requests', {
        params: { orgId },
        query: { ...filters, limit: 25 },
        signal,
      }),
    [orgId, key, tick],
  );
  const [email, setEmail] = useState(filters.email);
  const [reference, setReference] = useState(filters.external_id);
  useEffect(() => setEmail(filters.email), [filters.email]);
  useEffect(() => setReference(filters.external_id), [filters.external_id]);
  const formName = new Map(forms.map((f) => [f.id, f.name]));
  const filtered = FILTERS.some((k) => k !== 'page' && filters[k]);

  return (
    <section aria-labelledby='sent-requests'>
      <h2 id='sent-requests'>Sent requests</h2>
      <form
        class='filters rr-filters'
        role='search'
        aria-label='Filter requests'
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ email: email.trim(), external_id: reference.trim(), page: null }, false);
        }}
      >
        <div class='field'>
          <label for='q-email'>E-mail address</label>
          <input
            id='q-email'
            type='search'
            maxLength={320}
            placeholder='name@example.com'
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <div class='field'>
          <label for='q-reference'>Your reference</label>
          <input
            id='q-reference'
            type='search'
            maxLength={200}
            value={reference}
            onInput={(e) => setReference(e.currentTarget.value)}
          />
        </div>
        <QuerySelect
          label='Status'
          name='status'
          value={filters.status}
          options={[['', 'Any'], ...Object.entries(STATUS_LABEL)]}
        />
        <QuerySelect
          label='Form'
          name='form_id'
          value={filters.form_id}
          options={[['', 'Any'], ...forms.map((f): [string, string] => [f.id, f.name])]}
        />
        <QueryDate label='Created from' name='startDate' value={filters.startDate} />
        <QueryDate label='Created until' name='endDate' value={filters.endDate} />
        <div class='filter-buttons'>
          <button type='submit' class='button'>Search</button>
          {filtered && (
            <button
              type='button'
              class='button'
              onClick={() => setQuery(Object.fromEntries(FILTERS.map((k) => [k, null])), false)}
            >
              Clear filters
            </button>
          )}
        </div>
      </form>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading requests' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          {filtered ? 'No request matches these filters.' : (
            <>
              No review requests yet. Send the first one above, or{' '}
              <a href={appPath('/requests/bulk')}>send many at once from a CSV file</a> of your recent orders.
            </>
          )}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class='table-wrap rr-table-wrap'>
            <table class='rr-table' aria-busy={list.loading}>
              <caption class='visually-hidden'>Review requests, newest first</caption>
              <thead>
                <tr>
                  <th scope='col'>Customer</th>
                  <th scope='col'>Order</th>
                  <th scope='col'>Form</th>
                  <th scope='col'>Status</th>
                  <th scope='col'>Created</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((r) => (
                  <tr key={r.id}>
                    <td class='rr-customer'>
                      <a href={appPath(`/requests/${r.id}`)}>{r.name}</a>
                      <span class='muted small rr-email'>{r.email}</span>
                    </td>
                    <td data-label='Order'>
                      {r.order_id ?? r.external_id ?? <span class='muted'>—</span>}
                    </td>
                    <td data-label='Form'>{formName.get(r.form_id) ?? <span class='muted'>A deleted form</span>}</td>
                    <td data-label='Status'>
                      <StatusBadge status={r.status} />
                      {r.status === 'queued' && Date.parse(r.send_at) > Date.now() + 60_000 && (
                        <span class='muted small rr-when'>for {formatDateTime(r.send_at)}</span>
                      )}
                    </td>
                    <td data-label='Created'>{formatDateTime(r.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </section>
  );
}
