// A catalog CSV read into products: which columns it has (by name, or by the names of a Google
// Merchant feed), each row checked as the API would check it, the rows cut into the bulk sync's
// calls (1,000 rows and 1 MiB at most each), and the API's answers mapped back to the file's rows.
import type { Schemas } from '../../api.ts';
import { toCsv } from '../../csv.ts';
import { formatNumber } from '../../ui/format.ts';
import { FIELD_BY_KEY, fieldProblem, PRODUCT_FIELDS, type ProductKey } from './fields.ts';

export type ProductInput = Schemas['ProductInput'];
type SyncAnswer = Schemas['BulkProductsResult'];

export const MAX_FILE_ROWS = 50_000;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** What one PUT …/products takes: 1,000 rows and a body of 1 MiB (less a margin for the envelope). */
export const CHUNK_ROWS = 1000;
export const CHUNK_BYTES = 1024 * 1024 - 4096;

/** Other names a column may have: a shop's export or a Google Merchant feed (id, title, link, …). */
const ALIASES: Partial<Record<ProductKey, string[]>> = {
  external_id: ['id', 'product id', 'external id'],
  name: ['title', 'product name'],
  url: ['link', 'product url', 'product link'],
  image_url: ['image link', 'image', 'image url'],
  gtin: ['ean', 'upc', 'barcode'],
  group: ['item group id', 'product group'],
};

const norm = (s: string) => s.trim().toLowerCase().replace(/[\s_\-]+/g, ' ');

export interface CatalogRow {
  /** The row's number as a spreadsheet shows it (the header is row 1). */
  row: number;
  values: Record<ProductKey, string>;
  problems: string[];
  /** What the row sends, when it has no problem: the cells it fills (an empty cell leaves a field as it is). */
  input?: ProductInput;
}

export interface Catalog {
  rows: CatalogRow[];
  columns: ProductKey[];
  ignored: string[];
  fileProblems: string[];
}

/** The template to download: every column and two example rows. */
export function catalogTemplate(): string {
  return toCsv([
    PRODUCT_FIELDS.map((f) => f.key),
    PRODUCT_FIELDS.map((f) => f.example[0]),
    PRODUCT_FIELDS.map((f) => f.example[1]),
  ]);
}

/** Which column of the header holds each field, and the header's other (ignored) names. */
function mapHeader(header: string[]): { index: Map<ProductKey, number>; ignored: string[] } {
  const index = new Map<ProductKey, number>();
  const ignored: string[] = [];
  header.forEach((cell, i) => {
    const h = norm(cell);
    const f = PRODUCT_FIELDS.find((f) => norm(f.key) === h || (ALIASES[f.key] ?? []).map(norm).includes(h));
    if (f && !index.has(f.key)) index.set(f.key, i);
    else if (h) ignored.push(cell.trim());
  });
  return { index, ignored };
}

/** Reads a file's records into rows with their problems, as the API would judge them. */
export function checkCatalog(records: string[][]): Catalog {
  if (records.length === 0) return { rows: [], columns: [], ignored: [], fileProblems: ['The file is empty.'] };
  if (records.length - 1 > MAX_FILE_ROWS) {
    return {
      rows: [],
      columns: [],
      ignored: [],
      fileProblems: [
        `The file has ${formatNumber(records.length - 1)} products; at most ${
          formatNumber(MAX_FILE_ROWS)
        } can be uploaded at once. Split it into smaller files.`,
      ],
    };
  }
  const { index, ignored } = mapHeader(records[0]);
  const fileProblems: string[] = [];
  for (const f of PRODUCT_FIELDS) {
    if (f.required && !index.has(f.key)) {
      fileProblems.push(
        `The first row names no "${f.key}" column. The first row must name the columns, as in the template.`,
      );
    }
  }
  if (records.length === 1) fileProblems.push('The file has a header row but no products under it.');
  const columns = PRODUCT_FIELDS.map((f) => f.key).filter((k) => index.has(k));
  if (fileProblems.length) return { rows: [], columns, ignored, fileProblems };

  const seen = new Map<string, number>();
  const rows = records.slice(1).map((cells, i): CatalogRow => {
    const row = i + 2;
    const values = Object.fromEntries(
      PRODUCT_FIELDS.map((f) => [f.key, index.has(f.key) ? (cells[index.get(f.key)!] ?? '').trim() : '']),
    ) as Record<ProductKey, string>;
    const problems: string[] = [];
    for (const key of columns) {
      const problem = fieldProblem(key, values[key]);
      if (problem) problems.push(`${FIELD_BY_KEY[key].label}: ${problem}.`);
    }
    if (values.external_id) {
      const first = seen.get(values.external_id);
      if (first) problems.push(`The same product id as row ${first}: each product once per file.`);
      else seen.set(values.external_id, row);
    }
    if (problems.length) return { row, values, problems };
    const input: ProductInput = { external_id: values.external_id, name: values.name };
    for (const k of columns) if (values[k]) input[k] = values[k];
    return { row, values, problems, input };
  });
  return { rows, columns, ignored, fileProblems };
}

/** The ready rows cut into the calls of the bulk sync: at most CHUNK_ROWS rows and CHUNK_BYTES each. */
export function chunkRows(rows: CatalogRow[], maxRows = CHUNK_ROWS, maxBytes = CHUNK_BYTES): CatalogRow[][] {
  const encoder = new TextEncoder();
  const chunks: CatalogRow[][] = [];
  let current: CatalogRow[] = [];
  let bytes = 0;
  for (const r of rows) {
    if (!r.input) continue;
    const size = encoder.encode(JSON.stringify(r.input)).length + 1;
    if (current.length && (current.length >= maxRows || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(r);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** The upload's result so far, over every call answered. */
export interface SyncTotals {
  created: number;
  updated: number;
  unchanged: number;
  /** Rows the API refused, by their row in the file. */
  rejected: { row: number; message: string }[];
}

export const NO_TOTALS: SyncTotals = { created: 0, updated: 0, unchanged: 0, rejected: [] };

/** Adds one call's answer, its refusals named by the rows of the file they came from. */
export function addAnswer(totals: SyncTotals, sent: CatalogRow[], answer: SyncAnswer): SyncTotals {
  return {
    created: totals.created + answer.created,
    updated: totals.updated + answer.updated,
    unchanged: totals.unchanged + answer.unchanged,
    rejected: [
      ...totals.rejected,
      ...answer.rejected.map((r) => ({ row: sent[r.index]?.row ?? 0, message: r.message })),
    ],
  };
}
