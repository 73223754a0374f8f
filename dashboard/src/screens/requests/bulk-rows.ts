// A CSV file of customers read into review requests: which columns it has (by name or alias), each
// row's problems as the API would judge them and more, the template, and the API's answer row by row.
import type { Schemas } from '../../api.ts';
import { toCsv } from '../../csv.ts';
import { formatNumber } from '../../ui/format.ts';
import { parseSendAt } from './send-time.ts';

type RequestInput = Omit<Schemas['ReviewRequestInput'], 'form_id'>;
type BulkResult = Schemas['BulkReviewRequestResult'];
type ReviewRequest = Schemas['ReviewRequest'];

/** What the API takes in one call. */
export const MAX_ROWS = 1000;
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

// The API's check of an address (zod's), so that the preview and the API agree.
const EMAIL = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

export type Key = 'email' | 'name' | 'order_id' | 'external_id' | 'locale' | 'send_at';

export const COLUMNS: { key: Key; required?: boolean; what: string; example: [string, string]; aliases: string[] }[] = [
  {
    key: 'email',
    required: true,
    what: "The customer's e-mail address.",
    example: ['ada@example.com', 'bruno@example.de'],
    aliases: ['e-mail', 'email address', 'e-mail address', 'mail', 'customer email'],
  },
  {
    key: 'name',
    required: true,
    what: "The customer's name, to greet them in the e-mail.",
    example: ['Ada Lovelace', 'Bruno Meier'],
    aliases: ['customer name', 'full name', 'customer', 'first name'],
  },
  {
    key: 'order_id',
    what: 'The order reference, carried to the review (forms that check purchases verify with it).',
    example: ['A-1001', 'A-1002'],
    aliases: ['order', 'order number', 'order reference', 'order no'],
  },
  {
    key: 'external_id',
    what: 'Your own id for the request. A reference used before is refused, so nobody is asked twice for one order.',
    example: ['order-1001', 'order-1002'],
    aliases: ['reference', 'your reference', 'external id'],
  },
  {
    key: 'locale',
    what: 'Language of the e-mail: en or de (other codes get English). Empty: English.',
    example: ['en', 'de'],
    aliases: ['language', 'lang'],
  },
  {
    key: 'send_at',
    what: 'When to send, in your local time: 2026-12-01 09:00, or ISO 8601 with a zone. Empty: now.',
    example: ['', ''],
    aliases: ['send at', 'send date', 'send time'],
  },
];

export const LABEL: Record<Key, string> = {
  email: 'E-mail',
  name: 'Name',
  order_id: 'Order',
  external_id: 'Your reference',
  locale: 'Language',
  send_at: 'Send at',
};

const norm = (s: string) => s.trim().toLowerCase().replace(/[\s_\-]+/g, ' ');

export interface Row {
  /** The row's number as a spreadsheet shows it (the header is row 1). */
  row: number;
  values: Record<Key, string>;
  problems: string[];
  input?: RequestInput;
}

export interface Upload {
  fileName: string;
  /** Made once per file: every try to send this file carries it. */
  key: string;
  rows: Row[];
  columns: Key[];
  ignored: string[];
  fileProblems: string[];
}

/** The template to download: the columns and two example rows. */
export function templateCsv(): string {
  return toCsv([
    COLUMNS.map((c) => c.key),
    COLUMNS.map((c) => c.example[0]),
    COLUMNS.map((c) => c.example[1]),
  ]);
}

/** Reads the file's records into rows with their problems, as the API would judge them and more. */
export function checkRows(records: string[][], now = Date.now()): Omit<Upload, 'fileName' | 'key'> {
  const fileProblems: string[] = [];
  if (records.length === 0) {
    return { rows: [], columns: [], ignored: [], fileProblems: ['The file is empty.'] };
  }
  const header = records[0].map(norm);
  const index = new Map<Key, number>();
  const ignored: string[] = [];
  header.forEach((h, i) => {
    const col = COLUMNS.find((c) => norm(c.key) === h || c.aliases.map(norm).includes(h));
    if (col && !index.has(col.key)) index.set(col.key, i);
    else if (h) ignored.push(records[0][i].trim());
  });
  for (const c of COLUMNS) {
    if (c.required && !index.has(c.key)) {
      fileProblems.push(
        `The first row names no "${c.key}" column. The first row must name the columns, as in the template.`,
      );
    }
  }
  if (records.length === 1) fileProblems.push('The file has a header row but no customers under it.');

  const seenEmail = new Map<string, number>();
  const seenRef = new Map<string, number>();
  let ready = 0;
  const rows: Row[] = records.slice(1).map((cells, i) => {
    const row = i + 2;
    const values = Object.fromEntries(
      COLUMNS.map((c) => [c.key, index.has(c.key) ? (cells[index.get(c.key)!] ?? '').trim() : '']),
    ) as Record<Key, string>;
    const problems: string[] = [];
    if (!values.email) problems.push('E-mail missing.');
    else if (values.email.length > 320 || !EMAIL.test(values.email)) {
      problems.push(`"${values.email}" is not a valid e-mail address.`);
    } else {
      const first = seenEmail.get(values.email.toLowerCase());
      if (first) problems.push(`The same e-mail as row ${first}: each customer is asked once per file.`);
      else seenEmail.set(values.email.toLowerCase(), row);
    }
    if (!values.name) problems.push('Name missing.');
    else if (values.name.length > 200) problems.push('Name longer than 200 characters.');
    if (values.order_id.length > 200) problems.push('Order longer than 200 characters.');
    if (values.external_id.length > 200) problems.push('Reference longer than 200 characters.');
    else if (values.external_id) {
      const first = seenRef.get(values.external_id);
      if (first) problems.push(`The same reference as row ${first}.`);
      else seenRef.set(values.external_id, row);
    }
    let locale = 'en';
    if (values.locale) {
      const m = /^([a-zA-Z]{2})(?:[-_]([a-zA-Z]{2}))?$/.exec(values.locale);
      if (m) locale = m[2] ? `${m[1].toLowerCase()}-${m[2].toUpperCase()}` : m[1].toLowerCase();
      else problems.push(`Language "${values.locale}" is not a code such as en or de.`);
    }
    let sendAt: string | undefined;
    if (values.send_at) {
      const s = parseSendAt(values.send_at, now);
      if (s.problem) problems.push(s.problem);
      sendAt = s.iso;
    }
    if (problems.length === 0) {
      ready++;
      if (ready > MAX_ROWS) {
        problems.push(
          `Beyond the ${formatNumber(MAX_ROWS)} requests that can be sent at once: send the rest in another file.`,
        );
      }
    }
    const input: RequestInput | undefined = problems.length ? undefined : {
      email: values.email,
      name: values.name,
      order_id: values.order_id || undefined,
      external_id: values.external_id || undefined,
      locale,
      send_at: sendAt,
    };
    return { row, values, problems, input };
  });
  const columns = COLUMNS.map((c) => c.key).filter((k) => index.has(k));
  return { rows, columns, ignored, fileProblems };
}

export interface Outcome {
  row: Row;
  request?: ReviewRequest;
  /** Why the API refused the row, or why it was not sent. */
  message?: string;
  sent: boolean;
}

/** The API's answer, row by row: accepted rows matched by address (unique in a sent file), refused by index. */
export function outcomes(upload: Upload, sent: Row[], result: BulkResult): Outcome[] {
  const refused = new Map(result.rejected.map((r) => [sent[r.index]?.row, r.message]));
  const byEmail = new Map(result.data.map((r) => [r.email.toLowerCase(), r]));
  return upload.rows.map((row) => {
    if (!row.input) return { row, sent: false, message: row.problems.join(' ') };
    if (refused.has(row.row)) return { row, sent: true, message: refused.get(row.row) };
    return { row, sent: true, request: byEmail.get(row.input.email.toLowerCase()) };
  });
}
