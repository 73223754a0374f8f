// A business's products in public, server-rendered like its profile page (no script; the one form
// is the Ask form of a product's Questions section, question-section.ts):
//   GET /p/:slug/products               the catalog: each listed product with its stars, by name,
//                                       24 a page (?page=), linking to its page
//   GET /p/:slug/products/:externalId   a product's page: its summary over its group, the bars,
//                                       its reviews ten a page with ?sort= and ?rating=, its
//                                       questions and answers with the Ask form, and the
//                                       same schema.org Product JSON-LD as the `jsonld` route
//                                       (core/product-jsonld.ts builds both)
// Which products are listed is the database's (plaudit.public_listed_products: those sold, and
// archived ones with reviews of their own); an archived product's page still answers. Both pages
// revalidate by ETag on the organization's public version, as the profile page does.
import { Hono } from 'hono';
import { ATTRIBUTE_STYLE, attributeSection } from './attribute-summary.ts';
import { loadPublicProfile, type PublicProfileRow, publicProfileVersion } from '../../core/db/public-profile.ts';
import type { Sql } from '../../core/db/client.ts';
import {
  loadPublicProduct,
  loadPublicProductReviews,
  NEWEST_FOR_JSONLD,
  publicProductPageVersion,
  type PublicProductRow,
} from '../../core/db/public-product.ts';
import { loadPublicQuestions } from '../../core/db/public-questions.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { safeLink } from '../../core/html.ts';
import { imageSource } from '../../core/web-links.ts';
import { productJsonLd } from '../../core/product-jsonld.ts';
import type { AppEnv } from '../http/env.ts';
import { withProductOf } from '../middleware/public-access/index.ts';
import { markup, page, raw } from './html.ts';
import {
  COUNT,
  jsonForScript,
  lastPageOf,
  listHeadLinks,
  type ListQuery,
  listVariant,
  pager,
  readListQuery,
  readPageNumber,
  REVIEW_LIST_STYLE,
  type ReviewItem,
  reviewListSections,
  REVIEWS_PER_PAGE,
  reviewsWord,
  stars,
} from './review-list.ts';
import { loadSummarySection, SUMMARY_STYLE, summarySection, type SummarySectionData } from './summary-section.ts';
import { cachedPublicPage, type Missing, NO_SUCH_BUSINESS, publicNotFound } from './shared.ts';
import { type PublicQuestionItem, QUESTION_STYLE, QUESTIONS_ON_PAGE, questionSection } from './question-section.ts';

const PRODUCTS_PER_PAGE = 24;
const NO_SUCH_PRODUCT: Missing = {
  title: 'No such product',
  text: 'There is no product page at this address. The link may be mistyped, or the business no longer shows it here.',
};

type CatalogItem = {
  external_id: string;
  name: string;
  image_url: string | null;
  archived: boolean;
  average_rating: number | null;
  review_count: number;
};
type Catalog = { total: number; items: CatalogItem[] };
type ReviewEnvelope = { data: ReviewItem[]; meta: { total: number } };

const STYLE = raw(`
main{max-width:46rem}
.crumbs{margin:0 0 .75rem;font-size:.95rem;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.crumbs a,.shop a{color:#0969da}
.product-head{display:flex;gap:1rem;align-items:center;margin-bottom:1rem}
.product-head img,.card img{width:6rem;height:6rem;object-fit:contain;border-radius:.5rem;border:1px solid #d0d7de;background:#fff;flex:none}
.product-head h1{margin:0;overflow-wrap:break-word}
.product-head>div{min-width:0}
.shop{margin:.25rem 0 0}
.cards{list-style:none;margin:1rem 0;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr))}
.card{border:1px solid #d0d7de;border-radius:.75rem;padding:.75rem;display:flex;flex-direction:column;gap:.75rem;align-items:flex-start}
@media (max-width:42rem){.card{flex-direction:row}}
.card a{color:#0969da;font-weight:600;overflow-wrap:break-word}
.card p{margin:.25rem 0 0;color:#57606a;font-size:.9rem}
.card .stars-row{font-size:1rem}
.gone{font-style:italic}
${REVIEW_LIST_STYLE}${ATTRIBUTE_STYLE}${QUESTION_STYLE.value}
${SUMMARY_STYLE}`);

const profileUrlOf = (base: string, slug: string) => `${base}/p/${encodeURIComponent(slug)}`;
const productUrlOf = (base: string, slug: string, externalId: string) =>
  `${profileUrlOf(base, slug)}/products/${encodeURIComponent(externalId)}`;

/** A page of the business's listed products with their figures; null for an unknown or switched-off profile. */
export async function loadCatalog(sql: Sql, slug: string, pageNumber: number, limit: number) {
  const [row] = await runAsPublic(
    sql,
    (tx) => tx<{ c: Catalog | null }[]>`select plaudit.public_product_catalog(${slug}, ${pageNumber}, ${limit}) as c`,
  );
  return row.c;
}

/** How many products the business lists in public (its profile page links to them when any). */
export async function listedProductCount(sql: Sql, slug: string): Promise<number> {
  return Number((await loadCatalog(sql, slug, 1, 0))?.total ?? 0);
}

function ratingLine(average: number | null, count: number) {
  return average === null
    ? markup`<p>No reviews yet</p>`
    : markup`<p>${stars(average)} ${average.toFixed(1)} · ${reviewsWord(count)}</p>`;
}

function renderCatalog(base: string, slug: string, profile: PublicProfileRow, catalog: Catalog, pageNumber: number) {
  const profileUrl = profileUrlOf(base, slug);
  const catalogUrl = `${profileUrl}/products`;
  const at = (n: number) => (n > 1 ? `${catalogUrl}?page=${n}` : catalogUrl);
  const lastPage = Math.max(1, Math.ceil(Number(catalog.total) / PRODUCTS_PER_PAGE));
  const prev = pageNumber > 1 ? at(pageNumber - 1) : null;
  const next = pageNumber < lastPage ? at(pageNumber + 1) : null;
  const title = `Products of ${profile.name} and their reviews${pageNumber > 1 ? ` – page ${pageNumber}` : ''}`;
  const description = `${
    COUNT.format(Number(catalog.total))
  } products of ${profile.name}, with their customers' ratings.`;
  const head = markup`<meta name="description" content="${description}">
<link rel="canonical" href="${at(pageNumber)}">
${prev ? markup`<link rel="prev" href="${prev}">\n` : ''}${next ? markup`<link rel="next" href="${next}">\n` : ''}`;
  const cards = catalog.items.map((p) => {
    const image = imageSource(p.image_url);
    return markup`<li class="card">${
      image ? markup`<img src="${image}" alt="${p.name}" width="96" height="96" loading="lazy">` : ''
    }<div><a href="${productUrlOf(base, slug, p.external_id)}">${p.name}</a>${
      ratingLine(p.average_rating === null ? null : Number(p.average_rating), Number(p.review_count))
    }${p.archived ? markup`<p class="gone">No longer sold</p>` : ''}</div></li>`;
  });
  const body = markup`<p class="crumbs"><a href="${profileUrl}">← Reviews of ${profile.name}</a></p>
<h1>Products of ${profile.name}</h1>
<ul class="cards">${cards}</ul>
${pager({ prev, next, page: pageNumber, lastPage })}`;
  return page({ title, body, indexable: true, head, style: STYLE });
}

export type ProductPageData = {
  version: string;
  profile: PublicProfileRow;
  product: PublicProductRow;
  reviews: ReviewEnvelope;
  newest: ReviewItem[];
  summary: SummarySectionData | null;
  questions: PublicQuestionItem[];
};

function renderProduct(base: string, slug: string, data: ProductPageData, q: ListQuery) {
  const { profile, product: p, reviews } = data;
  const profileUrl = profileUrlOf(base, slug);
  const productUrl = productUrlOf(base, slug, p.external_id);
  const count = Number(p.review_count);
  const average = p.average_rating === null ? null : Number(p.average_rating);
  const image = imageSource(p.image_url);
  const shop = safeLink(p.url);
  const summary = average === null
    ? `No reviews of ${p.name} yet.`
    : `${p.name} is rated ${average.toFixed(1)} out of 5 from ${reviewsWord(count)}.`;
  const title = `${p.name} reviews${average === null ? '' : ` – rated ${average.toFixed(1)} of 5`} – ${profile.name}${
    q.page > 1 ? ` – page ${q.page}` : ''
  }`;
  const head = markup`<meta name="description" content="${summary.slice(0, 300)}">
${listHeadLinks(productUrl, q, reviews.meta.total)}<meta property="og:type" content="product">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${summary.slice(0, 300)}">
<meta property="og:url" content="${productUrl}">
${image ? markup`<meta property="og:image" content="${image}">\n` : ''}<meta name="twitter:card" content="summary">
<script type="application/ld+json">${jsonForScript(productJsonLd(p, data.newest))}</script>
`;
  const body =
    markup`<p class="crumbs"><a href="${profileUrl}">← Reviews of ${profile.name}</a><a href="${profileUrl}/products">All products</a></p>
<header class="product-head">${
      image ? markup`<img src="${image}" alt="${p.name}" width="96" height="96">` : ''
    }<div><h1>${p.name}</h1>${
      shop ? markup`<p class="shop"><a href="${shop}" rel="noopener">See it at ${profile.name}</a></p>` : ''
    }</div></header>
${summarySection(data.summary, p.name)}
${
      reviewListSections({
        pageUrl: productUrl,
        profileUrl,
        q,
        average,
        count,
        distribution: p.rating_distribution,
        attributes: attributeSection(p.attributes),
        items: reviews.data,
        total: reviews.meta.total,
        business: profile.name,
        viewing: p.external_id,
        checking: p.checking_recent_reviews,
      })
    }
${questionSection(`${productUrl}/questions`, p.name, data.questions)}
<p class="fine">Reviews of ${p.name}, sold by ${profile.name}, collected and published with Plaudit.</p>`;
  return page({ title, body, indexable: true, head, style: STYLE });
}

/** What a product's page shows for this list query (its HTML and its markdown twin alike). */
export async function loadProductPage(sql: Sql, slug: string, externalId: string, q: ListQuery) {
  const [profile, product, reviews, newest, summary, questions] = await Promise.all([
    loadPublicProfile(sql, slug),
    loadPublicProduct(sql, slug, externalId),
    loadPublicProductReviews<ReviewItem>(sql, slug, externalId, { ...q, limit: REVIEWS_PER_PAGE }),
    loadPublicProductReviews<ReviewItem>(sql, slug, externalId, NEWEST_FOR_JSONLD),
    loadSummarySection(sql, slug, externalId),
    loadPublicQuestions(sql, slug, externalId, 1, QUESTIONS_ON_PAGE),
  ]);
  if (!profile || !profile.enabled || !product || !reviews || !newest) return null;
  return {
    version: withProductOf(profile.version, product.version),
    profile,
    product,
    reviews,
    newest: newest.data,
    summary,
    questions: questions ? (JSON.parse(questions.body) as { data: PublicQuestionItem[] }).data : [],
  };
}

export function productPages() {
  const app = new Hono<AppEnv>();

  app.get('/p/:slug/products', async (c) => {
    const slug = c.req.param('slug');
    const pageNumber = readPageNumber(c);
    if (typeof pageNumber === 'string') return publicNotFound(c, 400, 'This page does not exist', pageNumber);
    return await cachedPublicPage(c, {
      variant: `product-catalog-page:${slug}:${pageNumber}`,
      version: () => publicProfileVersion(c.var.sql, slug),
      load: async () => {
        const [profile, catalog] = await Promise.all([
          loadPublicProfile(c.var.sql, slug),
          loadCatalog(c.var.sql, slug, pageNumber, PRODUCTS_PER_PAGE),
        ]);
        if (!profile || !profile.enabled || !catalog) return null;
        return { version: profile.version, profile, catalog };
      },
      missing: NO_SUCH_BUSINESS,
      render: ({ profile, catalog }) => {
        if (Number(catalog.total) === 0) {
          return publicNotFound(c, 404, 'No products', `${profile.name} shows no products here.`);
        }
        const lastPage = Math.ceil(Number(catalog.total) / PRODUCTS_PER_PAGE);
        return pageNumber > lastPage
          ? publicNotFound(c, 404, 'No such page', `The products end at page ${lastPage}.`)
          : renderCatalog(c.var.config.publicUrl, slug, profile, catalog, pageNumber);
      },
    });
  });

  app.get('/p/:slug/products/:externalId', async (c) => {
    const slug = c.req.param('slug');
    const externalId = c.req.param('externalId');
    const q = readListQuery(c);
    if (typeof q === 'string') return publicNotFound(c, 400, 'This page does not exist', q);
    if (externalId.length < 1 || externalId.length > 200) {
      return publicNotFound(c, 404, NO_SUCH_PRODUCT.title, NO_SUCH_PRODUCT.text);
    }
    return await cachedPublicPage<ProductPageData>(c, {
      variant: `product-page:${slug}:${externalId}:${listVariant(q)}`,
      version: () => publicProductPageVersion(c.var.sql, slug, externalId),
      load: () => loadProductPage(c.var.sql, slug, externalId, q),
      missing: NO_SUCH_PRODUCT,
      render: (data) =>
        q.page > lastPageOf(data.reviews.meta.total)
          ? publicNotFound(
            c,
            404,
            'No such page',
            `This product's reviews end at page ${lastPageOf(data.reviews.meta.total)}.`,
          )
          : renderProduct(c.var.config.publicUrl, slug, data, q),
    });
  });

  return app;
}
