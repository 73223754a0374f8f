// One product as the shop sees it: its stars, its fields in a form (the API's message under the
// field it names), archiving (it keeps its reviews and takes no new ones) and deleting a product
// added by mistake, and its reviews, newest first, each linking to the review's page.
import { useState } from 'preact/hooks';
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { navigate, setQuery, useLocation } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Empty, ErrorNotice, Loading, Notice, Pager } from '../../ui/components.tsx';
import { Confirm } from '../../ui/confirm.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useAction, useLoad } from '../../ui/hooks.ts';
import { ReviewList } from '../../ui/review-list.tsx';
import type { ProductKey } from './fields.ts';
import { formValues, ProductFields } from './product-form.tsx';
import { useGroupFigures } from './group-figures.ts';
import { ArchivedBadge, RatingSummary } from './parts.tsx';
import { Thumbnail } from '../../ui/thumbnail.tsx';

type Product = Schemas['Product'];
type Patch = Schemas['ProductPatch'];

export function ProductPage({ params }: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { query } = useLocation();
  const ids: ItemIds = { orgId, id: params.id };
  const product = useLoad(
    (signal) => api.get('/organizations/{orgId}/products/{id}', { params: ids, signal }),
    [orgId, params.id],
  );
  const [notice, setNotice] = useState(query.get('added') === '1' ? 'The product is added.' : '');

  if (product.error) {
    return (
      <>
        <h1 tabIndex={-1}>Product</h1>
        <ErrorNotice error={product.error} />
        <p>
          <a href={appPath('/products')}>Back to the products</a>
        </p>
      </>
    );
  }
  if (!product.data) return <Loading what='Loading the product' />;
  const p = product.data;
  const changed = (next: Product, what: string) => {
    product.set(next);
    setNotice(what);
  };

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/products')}>Products</a>
      </p>
      <header class='page-header product-header'>
        <Thumbnail product={p} size={64} />
        <div class='product-heading'>
          <h1 tabIndex={-1}>{p.name}</h1>
          <p class='product-sub'>
            <code>{p.external_id}</code> <ArchivedBadge product={p} />
          </p>
          <ProductFigures product={p} />
        </div>
      </header>
      {notice && <Notice tone='success'>{notice}</Notice>}
      <div class='review-grid'>
        <div>
          <EditProduct key={p.updated_at} product={p} ids={ids} onChange={changed} />
          <ProductReviews product={p} />
        </div>
        <aside class='side'>
          <Archive product={p} ids={ids} onChange={changed} />
          <Delete product={p} ids={ids} />
          <section class='card'>
            <h2>Record</h2>
            <dl class='facts'>
              <dt>Added</dt>
              <dd>{formatDateTime(p.created_at)}</dd>
              <dt>Last changed</dt>
              <dd>{formatDateTime(p.updated_at)}</dd>
            </dl>
          </section>
        </aside>
      </div>
    </>
  );
}

type Changed = (p: Product, what: string) => void;

/** The fields that differ from the product's: an emptied optional field is cleared (null). */
function patchOf(p: Product, values: Record<ProductKey, string>): Patch {
  const patch: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(values) as [ProductKey, string][]) {
    const next = v.trim();
    if (next !== (p[k] ?? '')) patch[k] = next === '' && k !== 'name' && k !== 'external_id' ? null : next;
  }
  return patch as Patch;
}

function EditProduct({ product, ids, onChange }: { product: Product; ids: ItemIds; onChange: Changed }) {
  const [values, setValues] = useState(formValues(product));
  const patch = patchOf(product, values);
  const dirty = Object.keys(patch).length > 0;
  const save = useAction(async () => {
    const next = await api.patch('/organizations/{orgId}/products/{id}', { params: ids, body: patch });
    onChange(next, 'Your changes are saved.');
  });
  return (
    <form
      class='card'
      noValidate
      aria-labelledby='product-details'
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h2 id='product-details'>Details</h2>
      {save.error && <ErrorNotice error={save.error} />}
      <ProductFields values={values} onValue={(k, v) => setValues({ ...values, [k]: v })} error={save.error} />
      <div class='actions'>
        <button type='submit' class='button primary' disabled={save.pending || !dirty}>
          {save.pending ? 'Saving…' : 'Save changes'}
        </button>
        {dirty && (
          <button
            type='button'
            class='button'
            onClick={() => {
              setValues(formValues(product));
              save.clearError();
            }}
          >
            Discard changes
          </button>
        )}
      </div>
    </form>
  );
}

function Archive({ product, ids, onChange }: { product: Product; ids: ItemIds; onChange: Changed }) {
  const archive = !product.archived;
  const act = useAction(async () => {
    const next = await api.patch('/organizations/{orgId}/products/{id}', {
      params: ids,
      body: { archived: archive },
    });
    onChange(next, archive ? 'The product is archived.' : 'The product is on sale again and takes new reviews.');
  });
  return (
    <section class='card'>
      <h2>{product.archived ? 'Archived' : 'On sale'}</h2>
      <p class='muted small'>
        {product.archived
          ? 'It keeps its reviews but takes no new ones.'
          : 'Archive a product you no longer sell: it keeps its reviews and takes no new ones.'}
      </p>
      <ErrorNotice error={act.error} />
      {/* Keyed by the state, so that the question closes once answered. */}
      <Confirm
        key={String(product.archived)}
        label={archive ? 'Archive product' : 'Put back on sale'}
        question={archive
          ? 'Archive this product? Customers can no longer review it; its reviews stay.'
          : 'Put this product back on sale? Customers can review it again.'}
        confirm={archive ? 'Archive' : 'Put back on sale'}
        tone={archive ? 'danger' : 'primary'}
        pending={act.pending}
        onConfirm={() => void act.run()}
      />
    </section>
  );
}

function Delete({ product, ids }: { product: Product; ids: ItemIds }) {
  const appPath = useAppPath();
  const act = useAction(async () => {
    await api.delete('/organizations/{orgId}/products/{id}', { params: ids });
    navigate(appPath('/products?deleted=1'));
  });
  if (product.review_count > 0) {
    return (
      <section class='card'>
        <h2>Delete</h2>
        <p class='muted small'>A product with reviews cannot be deleted: archive it instead, and its reviews stay.</p>
      </section>
    );
  }
  return (
    <section class='card'>
      <h2>Delete</h2>
      <p class='muted small'>For a product added by mistake. A product with reviews is archived instead.</p>
      <ErrorNotice error={act.error} />
      <Confirm
        label='Delete product'
        question='Delete this product for good?'
        confirm='Delete'
        pending={act.pending}
        onConfirm={() => void act.run()}
      />
    </section>
  );
}

/**
 * The product's figures; for a product of a group, its own beside the group's, with what the
 * public is shown: the group's figures and reviews, on every public display.
 */
function ProductFigures({ product }: { product: Product }) {
  const appPath = useAppPath();
  const group = useGroupFigures([product]).get(product.external_id);
  return (
    <div class='product-figures'>
      <RatingSummary product={product} group={group} />
      {product.group && (
        <p class='muted small'>
          Part of the group{' '}
          <strong>{product.group}</strong>: the public product page, the widget and their structured data show the whole
          group’s figures and reviews. The reviews below are this variant’s.{' '}
          <a href={appPath(`/products?group=${encodeURIComponent(product.group)}`)}>See the group’s products</a>
        </p>
      )}
    </div>
  );
}

function ProductReviews({ product }: { product: Product }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { query } = useLocation();
  const page = query.get('page') ?? '';
  const reviews = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/reviews', {
        params: { orgId },
        query: { product_id: product.id, page, limit: 10 },
        signal,
      }),
    [orgId, product.id, page],
  );
  return (
    <section class='product-reviews' aria-labelledby='product-reviews'>
      <div class='section-head'>
        <h2 id='product-reviews'>Reviews</h2>
        <a href={appPath(`/reviews?product_id=${product.id}`)}>Filter them in the inbox</a>
      </div>
      <ErrorNotice error={reviews.error} />
      {reviews.loading && !reviews.data && <Loading what='Loading its reviews' />}
      {reviews.data && reviews.data.data.length === 0 && (
        <Empty>
          {product.archived
            ? 'No reviews. An archived product takes none.'
            : 'No reviews of this product yet. Ask for them in review requests, or let your shop’s product page submit them with this product’s id.'}
        </Empty>
      )}
      {reviews.data && reviews.data.data.length > 0 && (
        <>
          <ReviewList reviews={reviews.data.data} busy={reviews.loading} showProduct={false} />
          <Pager meta={reviews.data.meta} onPage={(n) => setQuery({ page: n }, false)} />
        </>
      )}
    </section>
  );
}
