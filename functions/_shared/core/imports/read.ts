// Reading an import file: its bytes as text (UTF-8 with or without a byte-order mark, or
// Windows-1252, detected; anything else refused with a message that says what to do), its CSV
// records, its header (the format named, or detected when it is unambiguous), and each row taken as
// a review or rejected with its row number and the reason. Nothing here writes: the dry run and the
// import read a file the same way.
import { csvRecords, decodeCsvBytes } from '../csv.ts';
import { detectLanguage } from '../language/detect.ts';
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
  /** The file gives the product a name; a product made from an id or handle alone is made archived. */
  product_named: boolean;
  published: boolean;
  /** Why a review is imported hidden, for the moderation trail: the platform had not published it. */
  hidden_reason: string | null;
  imported_as_verified: boolean;
  media_urls: string[];
  /** The language its title and text are written in (ISO 639-1), or null when too short to tell. */
  language: string | null;
}

export interface Rejection {
  row: number;
  message: string;
}

/** How many refused rows an answer names: every refusal is counted, the first ones kept with their reason. */
export const KEPT_REJECTIONS = 100;

/** The order of day and month in a file's `07/04/2024`: day first, or month first. */
export const DATE_ORDERS = ['dmy', 'mdy'] as const;
export type DateOrder = typeof DATE_ORDERS[number];

export interface ReadOptions {
  /** The file's date order, when the business chose it: without it an ambiguous date is refused. */
  dateOrder?: DateOrder | null;
  now?: Date;
  /** Whether each review's language is told from its text (REVIEW_LANGUAGES); else null. */
  detectLanguages?: boolean;
}

export type ReadResult =
  | {
    ok: true;
    format: ImportFormat;
    /** The rows taken, each once: a row repeated in the file is counted in `duplicates`. */
    reviews: ImportedReview[];
    /** The first KEPT_REJECTIONS refused rows, in file order. */
    rejected: Rejection[];
    /** Every refused row. */
    rejected_count: number;
    /** Rows taken that repeat an earlier row of the same file. */
    duplicates: number;
    /** Rows refused only because their date reads two ways: choosing the date order takes them. */
    ambiguous_dates: number;
    total_rows: number;
  }
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

/** The earliest date an imported review or reply may carry: before it, the cell is a mistake. */
export const EARLIEST_DATE = new Date('1995-01-01T00:00:00Z');

/** A date read, or why not: not a date at all, or a day and month that could be either. */
export type DateReading = { date: Date } | { problem: 'invalid' | 'ambiguous' };

/**
 * A date as the platforms write them: ISO 8601 (with or without a zone: UTC then; an offset of at
 * most ±14:59), `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS] [UTC]`, and `DD/MM/YYYY` or `MM/DD/YYYY`
 * (slashes or dots) `[HH:MM[:SS]]`. Day and month are told apart by the order given, else by a
 * number over 12; when both are 12 or less and differ, the date is ambiguous.
 */
export function readImportDate(s: string, order: DateOrder | null = null): DateReading {
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
  } else if ((m = /^(\d{1,2})([/.])(\d{1,2})\2(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t))) {
    const [a, b] = [Number(m[1]), Number(m[3])];
    let dayFirst: boolean;
    if (order) dayFirst = order === 'dmy';
    else if (a > 12 || b > 12 || a === b) dayFirst = a > 12;
    else return { problem: 'ambiguous' };
    parts = [Number(m[4]), dayFirst ? b : a, dayFirst ? a : b, ...[m[5] ?? '0', m[6] ?? '0', m[7] ?? '0'].map(Number)];
  } else return { problem: 'invalid' };
  const [y, mo, d, h, mi, se] = parts;
  const [zoneHours, zoneMinutes] = zone === 'Z' ? [0, 0] : [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
  if (zoneHours > 14 || zoneMinutes > 59) return { problem: 'invalid' };
  const offset = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  const utc = Date.UTC(y, mo - 1, d, h, mi, se, ms) - offset * 60_000;
  const check = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  // 2026-02-30 is no date: the calendar must give back what was written.
  if (
    check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 ||
    se > 59
  ) {
    return { problem: 'invalid' };
  }
  return { date: new Date(utc) };
}

/** A date cell checked: read, and within 1995-01-01 … now + 1 day; or the message refusing its row. */
function checkDate(
  value: string,
  column: string,
  order: DateOrder | null,
  now: Date,
): Date | { message: string; ambiguous?: true } {
  const shown = value.trim().slice(0, 40);
  const r = readImportDate(value, order);
  if ('problem' in r) {
    return r.problem === 'ambiguous'
      ? {
        message: `${column}: "${shown}" reads as day/month or month/day; choose the file's date order (dmy or mdy)`,
        ambiguous: true,
      }
      : { message: `${column}: not a date ("${shown}")` };
  }
  if (r.date.getTime() > now.getTime() + 86_400_000) return { message: `${column}: in the future ("${shown}")` };
  if (r.date < EARLIEST_DATE) return { message: `${column}: before 1995 ("${shown}")` };
  return r.date;
}

/** A rating as a plain decimal whole number (`4`, `4.0`): `0x5`, `5e0` or `+5` are not ratings. */
const PLAIN_RATING = /^\d{1,2}(?:\.0+)?$/;

/** Each platform's name for the reply's date. */
const REPLY_DATE: Record<ImportFormat, string> = {
  plaudit: 'replied_at',
  judgeme: 'reply_date',
  yotpo: 'reply date',
  okendo: 'reply date',
  loox: 'reply date',
  shopify: 'replied_at',
};

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
  dateOrder: DateOrder | null = null,
  detectLanguages = true,
): ImportedReview | (Rejection & { ambiguous?: true }) {
  const raw = FORMATS[format].read(cells);
  const col = (field: string) => FIELD_NAMES[format][field] ?? field;
  const rating = Number(raw.rating.trim());
  if (!PLAIN_RATING.test(raw.rating.trim()) || rating < 1 || rating > 5) {
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
  const created = checkDate(raw.createdAt, col('date'), dateOrder, now);
  if (!(created instanceof Date)) return { row, ...created };
  const email = raw.reviewerEmail.trim();
  const reply = text(raw.reply, 'reply', MAX.reply);
  if (typeof reply !== 'string') return { row, ...reply };
  const replied = raw.repliedAt.trim() ? checkDate(raw.repliedAt, REPLY_DATE[format], dateOrder, now) : null;
  if (replied && !(replied instanceof Date)) return { row, ...replied };
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
    product_named: raw.productNamed && productName !== '',
    published: raw.published,
    hidden_reason: raw.published
      ? null
      : `not published on ${PLATFORM_NAMES[format]}${raw.publishedBy ? ` (${raw.publishedBy})` : ''}`,
    imported_as_verified: raw.claimedVerified,
    media_urls: raw.mediaUrls.split(/[\s,]+/).filter((u) => /^https?:\/\/\S+$/i.test(u)).slice(0, 6),
    language: detectLanguages ? detectLanguage(title || null, content) : null,
  };
}

/** What tells two rows of a file apart as reviews: the platform's id of it, or what the row says. */
function rowKey(r: ImportedReview): string {
  return r.source_id !== null ? `id:${r.source_id}` : JSON.stringify([
    r.created_at,
    r.reviewer_email?.toLowerCase() ?? null,
    r.reviewer_name,
    r.rating,
    r.title,
    r.content,
    r.product_external_id,
  ]);
}

/** A whole file read: each row taken or rejected, or the reason the file cannot be read at all. */
export function readImport(
  bytes: Uint8Array,
  format: ImportFormat | null,
  { now = new Date(), dateOrder = null, detectLanguages = true }: ReadOptions = {},
): ReadResult {
  const decoded = decodeImport(bytes);
  if ('message' in decoded) return { ok: false, message: decoded.message };
  // Record by record: only the reviews taken and the first refusals are kept, whatever the file's size.
  const records = csvRecords(decoded.text);
  const first = records.next();
  if (first.done) return { ok: false, message: 'file: empty; it needs a header row and reviews' };
  const header = first.value.cells;
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
  // Each format asks for its columns by name, a dozen times a row: found once.
  const found = new Map<string, number | undefined>();
  const position = (c: string) => {
    if (!found.has(c)) found.set(c, index.get(columnKey(c)));
    return found.get(c);
  };
  const reviews: ImportedReview[] = [];
  const rejected: Rejection[] = [];
  const seen = new Set<string>();
  let rejectedCount = 0;
  let duplicates = 0;
  let ambiguous = 0;
  let total = 0;
  for (const { cells } of records) {
    total += 1;
    const cell = (c: string) => {
      const i = position(c);
      return i === undefined ? '' : cells[i] ?? '';
    };
    const out = checkRow(chosen, cell, total + 1, now, dateOrder, detectLanguages);
    if ('message' in out) {
      // Counted, every one; kept, the first ones: a file of a million bad rows answers in a few kilobytes.
      rejectedCount += 1;
      if ('ambiguous' in out) ambiguous += 1;
      if (rejected.length < KEPT_REJECTIONS) rejected.push({ row: out.row, message: out.message });
    } else {
      const key = rowKey(out);
      if (seen.has(key)) duplicates += 1;
      else {
        seen.add(key);
        reviews.push(out);
      }
    }
  }
  return {
    ok: true,
    format: chosen,
    reviews,
    rejected,
    rejected_count: rejectedCount,
    duplicates,
    ambiguous_dates: ambiguous,
    total_rows: total,
  };
}
