// Reading an import file: its bytes as text (UTF-8 with or without a byte-order mark, or
// Windows-1252, detected; anything else refused with a message that says what to do), its CSV
// records, its header (the format named, or detected when it is unambiguous), and each row taken as
// a review or rejected with its row number and the reason. Nothing here writes: the dry run and the
// import read a file the same way.
import { decodeCsvBytes, parseCsv } from '../csv.ts';
import {
  columnKey,
  detectFormat,
  FORMATS,
  formatsOf,
  type ImportFormat,
  missingColumns,
  PLATFORM_NAMES,
} from './formats.ts';

/** A row taken: what the database receives for one review. */
export interface ImportedReview {
  /** The row's number as a spreadsheet shows it (the header is row 1). */
  row: number;
  source_id: string | null;
  rating: number;
  title: string | null;
  content: string;
  reviewer_name: string;
  reviewer_email: string | null;
  created_at: string;
  reply: string | null;
  replied_at: string | null;
  product_external_id: string | null;
  product_name: string | null;
  published: boolean;
  imported_as_verified: boolean;
  media_urls: string[];
}

export interface Rejection {
  row: number;
  message: string;
}

export type ReadResult =
  | { ok: true; format: ImportFormat; reviews: ImportedReview[]; rejected: Rejection[]; total_rows: number }
  | { ok: false; message: string };

/** The file's text, or why it cannot be read. */
export function decodeImport(bytes: Uint8Array): { text: string } | { message: string } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { message: 'file: UTF-16 is not read; save the file as CSV UTF-8 and upload it again' };
  }
  if (bytes.includes(0)) return { message: 'file: this is not a text file; upload the CSV the platform exported' };
  return { text: decodeCsvBytes(bytes) };
}

/** The largest file an import reads (the API refuses larger, the dashboard says so before sending). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

const MAX = { title: 200, content: 5000, name: 200, email: 320, reply: 5000, product: 200, productName: 500 };
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Each platform's own name for a field, for messages the business can find in its file. */
const FIELD_NAMES: Record<ImportFormat, Record<string, string>> = {
  plaudit: { rating: 'rating', content: 'content', date: 'created_at', title: 'title', name: 'reviewer_name' },
  judgeme: { rating: 'rating', content: 'body', date: 'review_date', title: 'title', name: 'reviewer_name' },
  yotpo: {
    rating: 'Review Score',
    content: 'Review Content',
    date: 'Date',
    title: 'Review Title',
    name: 'Display Name',
  },
  okendo: { rating: 'Rating', content: 'Body', date: 'Date Created', title: 'Title', name: 'Reviewer Name' },
  loox: { rating: 'rating', content: 'review', date: 'date', title: 'title', name: 'nickname' },
  shopify: { rating: 'rating', content: 'body', date: 'created_at', title: 'title', name: 'author' },
};

/**
 * A date as the platforms write them: ISO 8601 (with or without a zone: UTC then), `YYYY-MM-DD`,
 * `YYYY-MM-DD HH:MM[:SS] [UTC]`, `MM/DD/YYYY [HH:MM[:SS]]`. Null when it is none of them.
 */
export function parseImportDate(s: string): Date | null {
  const t = s.trim().replace(/ UTC$/i, 'Z');
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
    t,
  );
  let parts: number[];
  let zone = 'Z';
  let ms = 0;
  if (m) {
    parts = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
    ms = Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
    zone = m[8] ?? 'Z';
  } else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t))) {
    parts = [m[3], m[1], m[2], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  } else return null;
  const [y, mo, d, h, mi, se] = parts;
  const offset = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) *
    (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  const utc = Date.UTC(y, mo - 1, d, h, mi, se, ms) - offset * 60_000;
  const check = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  // 2026-02-30 is no date: the calendar must give back what was written.
  if (
    check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 ||
    se > 59
  ) {
    return null;
  }
  return new Date(utc);
}

/** Up to `max` characters of trimmed text, or a message naming the column. */
function text(value: string, column: string, max: number): string | { message: string } {
  const t = value.trim();
  return [...t].length > max ? { message: `${column}: longer than ${max} characters` } : t;
}

/** One row's review, or the reason it is refused (the first problem found). */
export function checkRow(
  format: ImportFormat,
  cells: (c: string) => string,
  row: number,
  now: Date,
): ImportedReview | Rejection {
  const raw = FORMATS[format].read(cells);
  const col = (field: string) => FIELD_NAMES[format][field] ?? field;
  const rating = Number(raw.rating.trim());
  if (raw.rating.trim() === '' || !Number.isInteger(rating) || rating < 1 || rating > 5) {
    return {
      row,
      message: `${col('rating')}: must be a whole number from 1 to 5, not "${raw.rating.trim().slice(0, 20)}"`,
    };
  }
  const content = text(raw.content, col('content'), MAX.content);
  if (typeof content !== 'string') return { row, ...content };
  if (content === '') return { row, message: `${col('content')}: empty; a review needs its text` };
  const title = text(raw.title, col('title'), MAX.title);
  if (typeof title !== 'string') return { row, ...title };
  const name = text(raw.reviewerName, col('name'), MAX.name);
  if (typeof name !== 'string') return { row, ...name };
  const created = parseImportDate(raw.createdAt);
  if (!created) return { row, message: `${col('date')}: not a date ("${raw.createdAt.trim().slice(0, 40)}")` };
  if (created.getTime() > now.getTime() + 86_400_000) return { row, message: `${col('date')}: in the future` };
  const email = raw.reviewerEmail.trim();
  const reply = text(raw.reply, 'reply', MAX.reply);
  if (typeof reply !== 'string') return { row, ...reply };
  const replied = raw.repliedAt.trim() ? parseImportDate(raw.repliedAt) : null;
  const product = text(raw.productExternalId, 'product', MAX.product);
  if (typeof product !== 'string') return { row, ...product };
  const productName = text(raw.productName, 'product name', MAX.productName);
  if (typeof productName !== 'string') return { row, ...productName };
  return {
    row,
    source_id: raw.sourceId.trim() || null,
    rating,
    title: title || null,
    content,
    reviewer_name: name || 'Anonymous',
    // A malformed address is no address: the review is kept, without one.
    reviewer_email: email.length <= MAX.email && EMAIL.test(email) ? email : null,
    created_at: created.toISOString(),
    reply: reply || null,
    replied_at: reply ? (replied ?? created).toISOString() : null,
    product_external_id: product || null,
    product_name: product ? productName || product : null,
    published: raw.published,
    imported_as_verified: raw.claimedVerified,
    media_urls: raw.mediaUrls.split(/[\s,]+/).filter((u) => /^https?:\/\/\S+$/i.test(u)).slice(0, 6),
  };
}

/** A whole file read: each row taken or rejected, or the reason the file cannot be read at all. */
export function readImport(bytes: Uint8Array, format: ImportFormat | null, now = new Date()): ReadResult {
  const decoded = decodeImport(bytes);
  if ('message' in decoded) return { ok: false, message: decoded.message };
  const { rows } = parseCsv(decoded.text);
  if (rows.length === 0) return { ok: false, message: 'file: empty; it needs a header row and reviews' };
  const header = rows[0];
  const chosen = format ?? detectFormat(header);
  if (!chosen) {
    const candidates = formatsOf(header);
    return {
      ok: false,
      message: candidates.length > 1
        ? `format: the header fits ${candidates.map((f) => PLATFORM_NAMES[f]).join(' and ')}; choose one`
        : 'format: the header row is none of the formats read (plaudit, judgeme, yotpo, okendo, loox, shopify); choose the format or check the file',
    };
  }
  const missing = missingColumns(chosen, header);
  if (missing.length) {
    return { ok: false, message: `file: the ${PLATFORM_NAMES[chosen]} header lacks ${missing.join(', ')}` };
  }
  const index = new Map<string, number>();
  header.forEach((h, i) => index.has(columnKey(h)) || index.set(columnKey(h), i));
  const reviews: ImportedReview[] = [];
  const rejected: Rejection[] = [];
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r];
    const cell = (c: string) => {
      const i = index.get(columnKey(c));
      return i === undefined ? '' : cells[i] ?? '';
    };
    const out = checkRow(chosen, cell, r + 1, now);
    if ('message' in out) rejected.push(out);
    else reviews.push(out);
  }
  return { ok: true, format: chosen, reviews, rejected, total_rows: rows.length - 1 };
}
