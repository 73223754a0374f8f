// The inbox: every review of the organization, newest first, with the contract's filters kept in
// the URL (so a filtered view can be bookmarked and shared), rating, status and product at a glance.
import { useEffect, useState } from 'preact/hooks';
import { api, prefetch } from '../api.ts';
import { setQuery } from '../router.ts';
import { useAppPath, useWorkspace } from '../session.ts';
import { Empty, ErrorNotice, Loading, PageHeader, Pager } from '../ui/components.tsx';
import { QueryDate, QuerySelect, useQueryFilters } from '../ui/filters.tsx';
import { useLoad } from '../ui/hooks.ts';
import { ProductPicker } from '../ui/product-picker.tsx';
import { ReviewList } from '../ui/review-list.tsx';

const FILTERS = [
  'q',
  'verification_status',
  'is_hidden',
  'has_media',
  'rating',
  'form_id',
  'product_id',
  'startDate',
  'endDate',
  'page',
] as const;
type Filter = (typeof FILTERS)[number];

/** Where the inbox's first page comes from, for starting it while the session loads. */
export function prefetchInbox(path: string, query: URLSearchParams): void {
  const m = /^\/app\/o\/([0-9a-f-]{36})\/reviews$/.exec(path);
  if (!m) return;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, query.get(k) ?? ''])) as Record<Filter, string>;
  prefetch(REVIEWS, inboxRequest(m[1], filters));
}

const REVIEWS = '/organizations/{orgId}/reviews';

/** The inbox's list request, from the organization and the URL's filters: the prefetch's and the list's own. */
export function inboxRequest(orgId: string, filters: Record<Filter, string>) {
  return { params: { orgId }, query: { ...filters, limit: 20 } };
}

export function Inbox() {
  const appPath = useAppPath();
  const { org } = useWorkspace();
  const { filters, key } = useQueryFilters(FILTERS);
  const list = useLoad(
    (signal) => api.get(REVIEWS, { ...inboxRequest(org.id, filters), signal }),
    [org.id, key],
  );
  const forms = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/review-forms', { params: { orgId: org.id }, query: { limit: 100 }, signal }),
    [org.id],
  );
  const filtered = FILTERS.some((k) => k !== 'page' && filters[k]);
  const [q, setQ] = useState(filters.q);
  useEffect(() => setQ(filters.q), [filters.q]);

  return (
    <>
      <PageHeader title='Reviews' />
      <form
        class='filters'
        role='search'
        aria-label='Filter reviews'
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ q: q.trim(), page: null }, false);
        }}
      >
        <div class='field grow'>
          <label for='f-q'>Search</label>
          <div class='search-row'>
            <input
              id='f-q'
              type='search'
              maxLength={200}
              placeholder='Words in the title or text'
              value={q}
              onInput={(e) => setQ(e.currentTarget.value)}
            />
            <button type='submit' class='button'>Search</button>
          </div>
        </div>
        <QuerySelect
          label='Verification'
          name='verification_status'
          value={filters.verification_status}
          options={[['', 'Any'], ['pending', 'Awaiting verification'], ['verified', 'Verified'], [
            'unverified',
            'Not verified',
          ], ['rejected', 'Rejected']]}
        />
        <QuerySelect
          label='Visibility'
          name='is_hidden'
          value={filters.is_hidden}
          options={[['', 'Any'], ['false', 'Not hidden'], ['true', 'Hidden']]}
        />
        <QuerySelect
          label='Photos and videos'
          name='has_media'
          value={filters.has_media}
          options={[['', 'Any'], ['true', 'With photos']]}
        />
        <QuerySelect
          label='Rating'
          name='rating'
          value={filters.rating}
          options={[['', 'Any'], ['5', '5 stars'], ['4', '4 stars'], ['3', '3 stars'], ['2', '2 stars'], [
            '1',
            '1 star',
          ]]}
        />
        <QuerySelect
          label='Form'
          name='form_id'
          value={filters.form_id}
          options={[['', 'Any'], ...(forms.data?.data ?? []).map((f): [string, string] => [f.id, f.name])]}
        />
        <ProductPicker
          label='Product'
          value={filters.product_id}
          onPick={(id) => setQuery({ product_id: id, page: null }, false)}
        />
        <QueryDate label='Written from' name='startDate' value={filters.startDate} />
        <QueryDate label='Written until' name='endDate' value={filters.endDate} />
        {filtered && (
          <p class='filters-end'>
            <button
              type='button'
              class='link'
              onClick={() => setQuery(Object.fromEntries(FILTERS.map((k) => [k, null])), false)}
            >
              Clear filters
            </button>
          </p>
        )}
      </form>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading reviews' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          {filtered ? 'No review matches these filters.' : (
            <>
              No reviews yet. <a href={appPath('/requests')}>Send review requests</a> to your customers, or{' '}
              <a href={appPath('/forms')}>share a review form</a>, to collect the first ones.
            </>
          )}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ReviewList reviews={list.data.data} busy={list.loading} />
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </>
  );
}
