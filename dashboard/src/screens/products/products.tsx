// The catalog: every product with its picture, ids, group, stars and state; a search by name
// (typed, kept in the URL so that reload and Back keep it), a group filter, archived products on
// request, pages as in the inbox, and the ways to add products (one, or a CSV file).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { setQuery } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Empty, ErrorNotice, Loading, Notice, PageHeader, Pager } from '../../ui/components.tsx';
import { CheckboxField } from '../../ui/fields.tsx';
import { useQueryFilters } from '../../ui/filters.tsx';
import { useLoad } from '../../ui/hooks.ts';
import { useGroupFigures } from './group-figures.ts';
import { ArchivedBadge, RatingSummary } from './parts.tsx';
import { Thumbnail } from '../../ui/thumbnail.tsx';

const FILTERS = ['q', 'group', 'archived', 'page', 'deleted'] as const;

/**
 * A text filter typed into the URL a moment after the last keystroke: the first change of a
 * search adds a history entry (Back returns to the list as it was), the next ones replace it.
 */
function useTypedFilter(name: string, inUrl: string): [string, (v: string) => void] {
  const [text, setText] = useState(inUrl);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => setText(inUrl), [inUrl]);
  const type = (v: string) => {
    setText(v);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setQuery({ [name]: v.trim(), page: null, deleted: null }, inUrl !== ''), 300);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return [text, type];
}

export function Products(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { filters, key } = useQueryFilters(FILTERS);
  const showArchived = filters.archived === 'any';
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/products', {
        params: { orgId },
        query: {
          q: filters.q,
          group: filters.group,
          archived: showArchived ? undefined : 'false',
          page: filters.page,
          limit: 25,
        },
        signal,
      }),
    [orgId, key],
  );
  const [q, setQ] = useTypedFilter('q', filters.q);
  const [group, setGroup] = useTypedFilter('group', filters.group);
  const searched = Boolean(filters.q || filters.group);
  const products = list.data?.data ?? [];
  const groupFigures = useGroupFigures(list.data?.data);

  return (
    <>
      <PageHeader title='Products'>
        <a class='button' href={appPath('/products/upload')}>Upload a CSV file</a>
        <a class='button primary' href={appPath('/products/new')}>Add product</a>
      </PageHeader>
      {filters.deleted === '1' && <Notice tone='success'>The product is deleted.</Notice>}
      <form
        class='filters product-filters'
        role='search'
        aria-label='Filter products'
        onSubmit={(e) => e.preventDefault()}
      >
        <div class='field'>
          <label for='f-q'>Search</label>
          <input
            id='f-q'
            type='search'
            maxLength={200}
            placeholder='A part of the name'
            value={q}
            onInput={(e) => setQ(e.currentTarget.value)}
          />
        </div>
        <div class='field'>
          <label for='f-group'>Group</label>
          <input
            id='f-group'
            type='search'
            maxLength={200}
            placeholder='Any group'
            value={group}
            onInput={(e) => setGroup(e.currentTarget.value)}
          />
        </div>
        <div class='filters-end'>
          <CheckboxField
            id='f-archived'
            label='Show archived products'
            checked={showArchived}
            onChecked={(on) => setQuery({ archived: on ? 'any' : null, page: null, deleted: null }, false)}
          />
        </div>
      </form>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading products' />}
      {list.data && products.length === 0 && (searched
        ? (
          <Empty>
            No product matches these filters.{' '}
            <button type='button' class='link' onClick={() => setQuery({ q: null, group: null, page: null }, false)}>
              Clear the search
            </button>
          </Empty>
        )
        : <NoProducts showArchived={showArchived} />)}
      {products.length > 0 && (
        <>
          <div class='table-wrap' aria-busy={list.loading}>
            <table class='stack-table product-table'>
              <caption class='visually-hidden'>Products{searched ? ' matching the filters' : ''}</caption>
              <thead>
                <tr>
                  <th scope='col'>
                    <span class='visually-hidden'>Picture</span>
                  </th>
                  <th scope='col'>Product</th>
                  <th scope='col'>Your id</th>
                  <th scope='col'>Group</th>
                  <th scope='col'>Reviews</th>
                </tr>
              </thead>
              <tbody>
                {products.map((p) => (
                  <tr key={p.id}>
                    <td class='thumb-cell'>
                      <Thumbnail product={p} />
                    </td>
                    <td data-label='Product' class='product-name-cell'>
                      <div>
                        <a class='product-name' href={appPath(`/products/${p.id}`)} title={p.name}>{p.name}</a>
                        {p.brand && <span class='muted small'>{p.brand}</span>} <ArchivedBadge product={p} />
                      </div>
                    </td>
                    <td data-label='Your id' class='product-id-cell'>
                      <code title={p.external_id}>{p.external_id}</code>
                    </td>
                    <td data-label='Group'>
                      {p.group
                        ? (
                          <button
                            type='button'
                            class='link group-link'
                            title={`Only the group ${p.group}`}
                            onClick={() => setQuery({ group: p.group, page: null }, false)}
                          >
                            {p.group}
                          </button>
                        )
                        : <span class='muted'>—</span>}
                    </td>
                    <td data-label='Reviews'>
                      <RatingSummary product={p} group={groupFigures.get(p.external_id)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager meta={list.data!.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </>
  );
}

/** The empty catalog: what products are for, and the three ways to fill it. */
function NoProducts({ showArchived }: { showArchived: boolean }) {
  const appPath = useAppPath();
  return (
    <Empty>
      <h2>{showArchived ? 'Your catalog is empty' : 'No product on sale'}</h2>
      <p>
        Products are what you sell. Customers can review each one as well as your business, and each product keeps its
        own stars and reviews. Add them in one of three ways:
      </p>
      <ul class='ways'>
        <li>
          <a href={appPath('/products/new')}>Add a product</a> by hand, one at a time.
        </li>
        <li>
          <a href={appPath('/products/upload')}>Upload a CSV file</a>{' '}
          of your catalog, exported from your shop or made from our template: up to 50,000 products at once.
        </li>
        <li>
          Sync it from your shop through the API: <code>PUT /api/v1/organizations/…/products</code>{' '}
          adds and updates up to 1,000 products per call, matched by your own product id (see the API documentation at
          {' '}
          <a href='/docs'>/docs</a>).
        </li>
      </ul>
      {!showArchived && (
        <p class='muted small'>
          Archived products are not shown.{' '}
          <button type='button' class='link' onClick={() => setQuery({ archived: 'any', page: null }, false)}>
            Show archived products
          </button>
        </p>
      )}
    </Empty>
  );
}
