// The review exports of other platforms, and Plaudit's own, as an import reads them: each format's
// header row (decisions.md: columns in any order, extra columns ignored), which of its columns an
// import needs, and how a row's cells become one review. Pure: the API's dry run and the worker's
// import read files alike.

export const IMPORT_FORMATS = ['plaudit', 'judgeme', 'yotpo', 'okendo', 'loox', 'shopify'] as const;
export type ImportFormat = typeof IMPORT_FORMATS[number];

/** What the pages say a review was imported from. */
export const PLATFORM_NAMES: Record<ImportFormat, string> = {
  plaudit: 'Plaudit',
  judgeme: 'Judge.me',
  yotpo: 'Yotpo',
  okendo: 'Okendo',
  loox: 'Loox',
  shopify: 'Shopify Product Reviews',
};

/** A row's cells by column name, as written (empty when the column is missing). */
export type Cells = (column: string) => string;

/** One review as a format's row gives it, before checks. */
export interface RawReview {
  /** The platform's own id of the review, when its export has one. */
  sourceId: string;
  rating: string;
  title: string;
  content: string;
  reviewerName: string;
  reviewerEmail: string;
  createdAt: string;
  reply: string;
  repliedAt: string;
  productExternalId: string;
  productName: string;
  /** Whether the file names the product (a title), not only its id or handle. */
  productNamed: boolean;
  /** Whether the platform showed it in public; an unpublished review is imported hidden. */
  published: boolean;
  /** The cells that said so, for the moderation trail of a review imported hidden ("curated: spam"). */
  publishedBy: string;
  /** What the platform claimed about the reviewer's purchase: kept, never shown as verified. */
  claimedVerified: boolean;
  mediaUrls: string;
}

interface FormatSpec {
  /** The header row the platform writes. */
  header: readonly string[];
  /** The columns without which a row cannot be read; the rest may be missing. */
  required: readonly string[];
  read(cell: Cells): RawReview;
}

const yes = (s: string) => /^(true|yes|y|1|verified)$/i.test(s.trim());
const empty = {
  sourceId: '',
  title: '',
  reviewerEmail: '',
  reply: '',
  repliedAt: '',
  productExternalId: '',
  productName: '',
  productNamed: false,
  claimedVerified: false,
  mediaUrls: '',
};

/** `column: value` of the cells a platform's published state comes from, the empty ones left out. */
const said = (c: Cells, ...columns: string[]) =>
  columns.filter((k) => c(k).trim() !== '').map((k) => `${k}: ${c(k).trim().slice(0, 40)}`).join(', ');

export const FORMATS: Record<ImportFormat, FormatSpec> = {
  // Plaudit's own CSV export (docs/reviews.md): an export imported elsewhere gives the same reviews.
  plaudit: {
    header: [
      'id',
      'rating',
      'title',
      'content',
      'reviewer_name',
      'reviewer_email',
      'verification_status',
      'is_hidden',
      'created_at',
      'form_id',
      'product_external_id',
      'product_name',
      'reply',
      'replied_at',
    ],
    required: ['id', 'rating', 'content', 'reviewer_name', 'verification_status', 'is_hidden', 'created_at'],
    read: (c) => ({
      ...empty,
      sourceId: c('id'),
      rating: c('rating'),
      // The export defuses cells a spreadsheet would run ('=…'): the import takes the text back.
      title: undefuse(c('title')),
      content: undefuse(c('content')),
      reviewerName: undefuse(c('reviewer_name')),
      reviewerEmail: c('reviewer_email'),
      createdAt: c('created_at'),
      productExternalId: undefuse(c('product_external_id')),
      productName: undefuse(c('product_name')),
      productNamed: c('product_name').trim() !== '',
      // An export without these columns (older ones) has no replies to keep.
      reply: undefuse(c('reply')),
      repliedAt: c('replied_at'),
      published: c('is_hidden').trim() !== 'true' && c('verification_status') !== 'rejected' &&
        c('verification_status') !== 'pending',
      publishedBy: said(c, 'is_hidden', 'verification_status'),
      claimedVerified: c('verification_status') === 'verified',
    }),
  },
  judgeme: {
    header: [
      'title',
      'body',
      'rating',
      'review_date',
      'source',
      'curated',
      'reviewer_name',
      'reviewer_email',
      'product_id',
      'product_handle',
      'reply',
      'reply_date',
      'picture_urls',
      'ip_address',
      'location',
      'hidden',
    ],
    required: ['body', 'rating', 'review_date', 'reviewer_name', 'curated'],
    read: (c) => ({
      ...empty,
      title: c('title'),
      content: c('body'),
      rating: c('rating'),
      createdAt: c('review_date'),
      reviewerName: c('reviewer_name'),
      reviewerEmail: c('reviewer_email'),
      productExternalId: c('product_id') || c('product_handle'),
      productName: c('product_handle'),
      reply: c('reply'),
      repliedAt: c('reply_date'),
      // Judge.me's curation: `ok` is published; `spam` and `not-yet` are not. Its import template's
      // `hidden` column (`true`) hides an `ok` review too.
      published: (/^(ok|published)$/i.test(c('curated').trim()) || c('curated').trim() === '') &&
        !yes(c('hidden')),
      publishedBy: said(c, 'curated', 'hidden'),
      mediaUrls: c('picture_urls'),
    }),
  },
  yotpo: {
    header: [
      'Review Title',
      'Review Content',
      'Review Score',
      'Date',
      'Product ID',
      'Product Name',
      'Display Name',
      'Email',
      'Published',
    ],
    required: ['Review Content', 'Review Score', 'Date', 'Display Name'],
    read: (c) => ({
      ...empty,
      title: c('Review Title'),
      content: c('Review Content'),
      rating: c('Review Score'),
      createdAt: c('Date'),
      productExternalId: c('Product ID'),
      productName: c('Product Name'),
      productNamed: c('Product Name').trim() !== '',
      reviewerName: c('Display Name'),
      reviewerEmail: c('Email'),
      // Yotpo's `Published` (`true`/`false`): a review its moderation had not published stays hidden.
      published: c('Published').trim() === '' || yes(c('Published')),
      publishedBy: said(c, 'Published'),
    }),
  },
  okendo: {
    header: [
      'Review ID',
      'Product ID',
      'Product Name',
      'Rating',
      'Title',
      'Body',
      'Reviewer Name',
      'Is Verified Buyer',
      'Date Created',
      'Status',
    ],
    required: ['Review ID', 'Rating', 'Body', 'Reviewer Name', 'Date Created'],
    read: (c) => ({
      ...empty,
      sourceId: c('Review ID'),
      productExternalId: c('Product ID'),
      productName: c('Product Name'),
      productNamed: c('Product Name').trim() !== '',
      rating: c('Rating'),
      title: c('Title'),
      content: c('Body'),
      reviewerName: c('Reviewer Name'),
      claimedVerified: yes(c('Is Verified Buyer')),
      createdAt: c('Date Created'),
      published: /^(approved|published|)$/i.test(c('Status').trim()),
      publishedBy: said(c, 'Status'),
    }),
  },
  loox: {
    header: [
      'id',
      'status',
      'rating',
      'email',
      'nickname',
      'full_name',
      'review',
      'date',
      'productId',
      'handle',
      'img',
      'variant',
      'verified_purchase',
    ],
    required: ['id', 'rating', 'review', 'date', 'productId'],
    read: (c) => ({
      ...empty,
      sourceId: c('id'),
      published: /^(active|published|)$/i.test(c('status').trim()),
      publishedBy: said(c, 'status'),
      rating: c('rating'),
      reviewerEmail: c('email'),
      reviewerName: c('nickname') || c('full_name'),
      content: c('review'),
      createdAt: c('date'),
      productExternalId: c('productId') || c('handle'),
      productName: c('handle'),
      mediaUrls: c('img'),
      claimedVerified: yes(c('verified_purchase')),
    }),
  },
  shopify: {
    header: [
      'product_handle',
      'state',
      'rating',
      'title',
      'author',
      'email',
      'location',
      'body',
      'reply',
      'created_at',
      'replied_at',
    ],
    required: ['product_handle', 'state', 'rating', 'author', 'body', 'created_at'],
    read: (c) => ({
      ...empty,
      productExternalId: c('product_handle'),
      productName: c('product_handle'),
      published: /^published$/i.test(c('state').trim()),
      publishedBy: said(c, 'state'),
      rating: c('rating'),
      title: c('title'),
      reviewerName: c('author'),
      reviewerEmail: c('email'),
      content: c('body'),
      reply: c('reply'),
      createdAt: c('created_at'),
      repliedAt: c('replied_at'),
    }),
  },
};

/** A cell the Plaudit export defused ('=…', '+…', '-…', '@…') as its text. */
function undefuse(s: string): string {
  return /^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s;
}

/** Columns compare by name, case and surrounding spaces aside. */
export const columnKey = (name: string) => name.trim().toLowerCase();

/** The formats whose required columns a header row holds. */
export function formatsOf(header: readonly string[]): ImportFormat[] {
  const have = new Set(header.map(columnKey));
  return IMPORT_FORMATS.filter((f) => FORMATS[f].required.every((c) => have.has(columnKey(c))));
}

/** The format a header row names without doubt, or null (none, or several). */
export function detectFormat(header: readonly string[]): ImportFormat | null {
  const found = formatsOf(header);
  return found.length === 1 ? found[0] : null;
}

/** The required columns of a format that a header row lacks. */
export function missingColumns(format: ImportFormat, header: readonly string[]): string[] {
  const have = new Set(header.map(columnKey));
  return FORMATS[format].required.filter((c) => !have.has(columnKey(c)));
}
