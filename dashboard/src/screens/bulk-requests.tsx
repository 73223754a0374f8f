// Sending review requests from a CSV file: the file is read and checked in the browser, a preview
// names every row's problem before anything is sent, only the valid rows go out in one call with an
// Idempotency-Key made once per file (a double click, a retry after a lost answer, sends nobody a
// second e-mail), and the answer is shown row by row.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, request, type Schemas } from '../api.ts';
import { useAppPath, useOrgPath } from '../session.ts';
import { Badge, ErrorNotice, Field, Loading, Notice, PageHeader } from '../ui/components.tsx';
import { CheckboxField } from '../ui/fields.tsx';
import { formatNumber } from '../ui/format.ts';
import { useAction, useLoad } from '../ui/hooks.ts';
import { downloadText, parseCsv, toCsv } from '../ui/csv.ts';
import { newIdempotencyKey, RequestTabs, StatusBadge, useForms } from './requests.tsx';

type RequestInput = Omit<Schemas['ReviewRequestInput'], 'form_id'>;
type BulkResult = Schemas['BulkReviewRequestResult'];
type ReviewRequest = Schemas['ReviewRequest'];
type Settings = Schemas['ReviewRequestSettings'];

/** What the API takes in one call. */
const MAX_ROWS = 1000;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_SEND_AHEAD_DAYS = 90;
/** Rows shown in the preview before "Show all". */
const PREVIEW_ROWS = 200;

// The API's check of an address (zod's), so that the preview and the API agree.
const EMAIL = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

type Key = 'email' | 'name' | 'order_id' | 'external_id' | 'locale' | 'send_at';

const COLUMNS: { key: Key; required?: boolean; what: string; example: [string, string]; aliases: string[] }[] = [
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

const LABEL: Record<Key, string> = {
  email: 'E-mail',
  name: 'Name',
  order_id: 'Order',
  external_id: 'Your reference',
  locale: 'Language',
  send_at: 'Send at',
};

const norm = (s: string) => s.trim().toLowerCase().replace(/[\s_\-]+/g, ' ');

interface Row {
  /** The row's number as a spreadsheet shows it (the header is row 1). */
  row: number;
  values: Record<Key, string>;
  problems: string[];
  input?: RequestInput;
}

interface Upload {
  fileName: string;
  /** Made once per file: every try to send this file carries it. */
  key: string;
  rows: Row[];
  columns: Key[];
  ignored: string[];
  fileProblems: string[];
}

function templateCsv(): string {
  return toCsv([
    COLUMNS.map((c) => c.key),
    COLUMNS.map((c) => c.example[0]),
    COLUMNS.map((c) => c.example[1]),
  ]);
}

/** Decodes a file as UTF-8, or as Windows-1252 when it is not UTF-8 (older spreadsheet exports). */
async function readText(file: File): Promise<string> {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function parseSendAt(value: string): { iso?: string; problem?: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  let t: Date;
  if (m) {
    // No zone: the person's local time.
    t = new Date(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    t = new Date(value);
  } else {
    return { problem: `Send at "${value}" is not a date and time such as 2026-12-01 09:00.` };
  }
  if (Number.isNaN(t.getTime())) return { problem: `Send at "${value}" is not a real date.` };
  if (t.getTime() > Date.now() + MAX_SEND_AHEAD_DAYS * 86_400_000) {
    return { problem: `Send at is more than ${MAX_SEND_AHEAD_DAYS} days ahead.` };
  }
  return { iso: t.toISOString() };
}

/** Reads the file's records into rows with their problems, as the API would judge them and more. */
export function checkRows(records: string[][]): Omit<Upload, 'fileName' | 'key'> {
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
      const s = parseSendAt(values.send_at);
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

interface Outcome {
  row: Row;
  request?: ReviewRequest;
  /** Why the API refused the row, or why it was not sent. */
  message?: string;
  sent: boolean;
}

/** The API's answer, row by row: accepted rows matched by address (unique in a sent file), refused by index. */
function outcomes(upload: Upload, sent: Row[], result: BulkResult): Outcome[] {
  const refused = new Map(result.rejected.map((r) => [sent[r.index]?.row, r.message]));
  const byEmail = new Map(result.data.map((r) => [r.email.toLowerCase(), r]));
  return upload.rows.map((row) => {
    if (!row.input) return { row, sent: false, message: row.problems.join(' ') };
    if (refused.has(row.row)) return { row, sent: true, message: refused.get(row.row) };
    return { row, sent: true, request: byEmail.get(row.input.email.toLowerCase()) };
  });
}

export function BulkRequests(_: { params: Record<string, string> }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const forms = useForms();
  const settings = useLoad(
    (signal) => api.get<Settings>(orgPath('/review-requests/settings'), undefined, signal),
    [orgPath()],
  );
  const [upload, setUpload] = useState<Upload>();
  const [reading, setReading] = useState<string>();
  const [result, setResult] = useState<Outcome[]>();
  const [formId, setFormId] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const [over, setOver] = useState(false);
  const inFlight = useRef(false);
  const active = forms.data?.data.filter((f) => f.is_active) ?? [];
  const chosenForm = formId || active[0]?.id || '';

  const ready = upload?.rows.filter((r) => r.input) ?? [];
  const problemRows = upload?.rows.filter((r) => !r.input) ?? [];
  const remaining = settings.data?.remaining_today;
  const overQuota = remaining !== undefined && ready.length > remaining;
  const body = upload && { requests: ready.map((r) => ({ ...r.input!, form_id: chosenForm })) };
  const tooBig = body ? new Blob([JSON.stringify(body)]).size > MAX_BODY_BYTES : false;

  const read = async (file: File | undefined) => {
    if (!file) return;
    setResult(undefined);
    setAttempted(false);
    setOnlyProblems(false);
    setShowAll(false);
    send.clearError();
    if (file.size > MAX_FILE_BYTES) {
      setUpload({
        fileName: file.name,
        key: newIdempotencyKey(),
        rows: [],
        columns: [],
        ignored: [],
        fileProblems: [`The file is larger than 5 MB: split it into files of at most ${formatNumber(MAX_ROWS)} rows.`],
      });
      return;
    }
    setReading(file.name);
    try {
      const { rows } = parseCsv(await readText(file));
      setUpload({ fileName: file.name, key: newIdempotencyKey(), ...checkRows(rows) });
    } finally {
      setReading(undefined);
    }
  };

  const send = useAction(async () => {
    if (!upload || !body) return;
    setAttempted(true);
    const answer = await request<BulkResult>('POST', orgPath('/review-requests/bulk'), {
      body,
      headers: { 'idempotency-key': upload.key },
    });
    setResult(outcomes(upload, ready, answer));
    settings.reload();
  });
  // A second click before the page has redrawn the button as busy sends nothing (and were it
  // sent, the file's key would make the server answer the first call's result).
  const go = () => {
    if (inFlight.current) return;
    inFlight.current = true;
    void send.run().finally(() => {
      inFlight.current = false;
    });
  };

  const reset = () => {
    setUpload(undefined);
    setResult(undefined);
    setAttempted(false);
    send.clearError();
  };

  return (
    <>
      <PageHeader title='Send from a CSV file'>
        <button
          type='button'
          class='button'
          onClick={() => downloadText('review-requests-template.csv', templateCsv())}
        >
          Download the CSV template
        </button>
      </PageHeader>
      <RequestTabs />
      <ErrorNotice error={forms.error} />
      {forms.data && active.length === 0 && (
        <Notice tone='error'>
          A request invites customers to one of your review forms, and you have no active form yet.{' '}
          <a href={appPath('/forms')}>Create a review form</a> first.
        </Notice>
      )}
      {result ? <Results outcomes={result} upload={upload!} onAgain={reset} /> : (
        <>
          {!upload && <Intro />}
          <div
            class={`dropzone${over ? ' over' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(true);
            }}
            onDragLeave={() => setOver(false)}
            onDrop={(e) => {
              e.preventDefault();
              setOver(false);
              void read(e.dataTransfer?.files[0]);
            }}
          >
            <input
              id='csv-file'
              class='visually-hidden file-input'
              type='file'
              accept='.csv,text/csv,text/plain'
              onChange={(e) => {
                void read(e.currentTarget.files?.[0]);
                e.currentTarget.value = '';
              }}
            />
            <label for='csv-file' class='button'>{upload ? 'Choose another CSV file' : 'Choose a CSV file'}</label>
            <p class='muted small'>
              or drop it here. Up to {formatNumber(MAX_ROWS)} customers per file; commas or semicolons.
            </p>
          </div>
          {reading && <Loading what={`Reading ${reading}`} />}
          {upload && (
            <Preview
              upload={upload}
              onlyProblems={onlyProblems}
              setOnlyProblems={setOnlyProblems}
              showAll={showAll}
              setShowAll={setShowAll}
            >
              {ready.length > 0 && (
                <div class='bulk-send'>
                  <h3>Send the ready rows</h3>
                  <Field
                    label='Review form'
                    name='bulk-form'
                    hint={attempted
                      ? 'Fixed after the first try, so that trying again can never send anyone a second e-mail.'
                      : 'All the requests of this file invite to this form.'}
                  >
                    {(p) => (
                      <select
                        {...p}
                        value={chosenForm}
                        disabled={attempted}
                        onChange={(e) => setFormId(e.currentTarget.value)}
                      >
                        {active.map((f) => <option key={f.id} value={f.id}>{f.name}</option>)}
                      </select>
                    )}
                  </Field>
                  {overQuota && (
                    <Notice tone='error'>
                      Today you can send {formatNumber(remaining!)} more requests (your daily limit is{' '}
                      {formatNumber(settings.data!.daily_quota)}), and this file has{' '}
                      {formatNumber(ready.length)}: all would be refused. Send fewer rows, or raise the limit in the
                      {' '}
                      <a href={appPath('/requests/settings')}>settings</a>.
                    </Notice>
                  )}
                  {tooBig && (
                    <Notice tone='error'>
                      These rows are more than 1 MB to send at once: split the file in two.
                    </Notice>
                  )}
                  {send.error && (
                    <Notice tone='error'>
                      {send.error.message}
                      {send.error.status === 0 || send.error.status >= 500
                        ? ' Nothing is sent twice if you try again: this file keeps its key.'
                        : ''}
                    </Notice>
                  )}
                  <p>
                    {problemRows.length > 0
                      ? `The ${formatNumber(problemRows.length)} row${
                        problemRows.length === 1 ? '' : 's'
                      } with problems will not be sent. Fix them in your file and upload it again, or send the others now.`
                      : 'Every row is ready.'}
                  </p>
                  <div class='actions'>
                    <button
                      type='button'
                      class='button primary'
                      disabled={send.pending || !chosenForm || overQuota || tooBig}
                      onClick={go}
                    >
                      {send.pending
                        ? 'Sending…'
                        : send.error
                        ? 'Try again'
                        : `Send ${formatNumber(ready.length)} review request${ready.length === 1 ? '' : 's'}`}
                    </button>
                    <button type='button' class='button' disabled={send.pending} onClick={reset}>Cancel</button>
                  </div>
                </div>
              )}
            </Preview>
          )}
        </>
      )}
    </>
  );
}

function Intro() {
  return (
    <section class='card' aria-labelledby='bulk-how'>
      <h2 id='bulk-how'>How it works</h2>
      <ol class='steps'>
        <li>Export your recent orders from your shop, or fill in the template.</li>
        <li>Choose or drop the file: you see every row and its problems before anything is sent.</li>
        <li>Send the valid rows. Trying again never e-mails anyone twice.</li>
      </ol>
      <details>
        <summary>Columns the file can have</summary>
        <div class='table-wrap' role='region' aria-label='Columns of the CSV file' tabIndex={0}>
          <table>
            <caption class='visually-hidden'>Columns of the CSV file</caption>
            <thead>
              <tr>
                <th scope='col'>Column</th>
                <th scope='col'>What it holds</th>
              </tr>
            </thead>
            <tbody>
              {COLUMNS.map((c) => (
                <tr key={c.key}>
                  <td>
                    <code>{c.key}</code>
                    {c.required ? ' (required)' : ''}
                  </td>
                  <td>
                    {c.what}
                    <span class='muted small aliases'>Also read as: {c.aliases.join(', ')}.</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p class='muted small'>Other columns are ignored. The first row names the columns.</p>
      </details>
    </section>
  );
}

function Preview(
  { upload, onlyProblems, setOnlyProblems, showAll, setShowAll, children }: {
    upload: Upload;
    /** What to do with the ready rows, between the problems and the table. */
    children: ComponentChildren;
    onlyProblems: boolean;
    setOnlyProblems: (v: boolean) => void;
    showAll: boolean;
    setShowAll: (v: boolean) => void;
  },
) {
  const ready = upload.rows.filter((r) => r.input).length;
  const problems = upload.rows.filter((r) => !r.input);
  const shown = onlyProblems ? problems : upload.rows;
  const visible = showAll ? shown : shown.slice(0, PREVIEW_ROWS);
  const cols = upload.columns.length ? upload.columns : (['email', 'name'] as Key[]);

  return (
    <section class='card' aria-labelledby='bulk-preview'>
      <h2 id='bulk-preview'>Preview of {upload.fileName}</h2>
      {upload.fileProblems.map((p) => <Notice key={p} tone='error'>{p}</Notice>)}
      {upload.rows.length > 0 && (
        <p class='bulk-summary' role='status'>
          <strong>{formatNumber(upload.rows.length)}</strong> row{upload.rows.length === 1 ? '' : 's'}:{' '}
          <Badge tone='good'>{`${formatNumber(ready)} ready`}</Badge>{' '}
          {problems.length > 0 && <Badge tone='bad'>{`${formatNumber(problems.length)} with problems`}</Badge>}
        </p>
      )}
      {upload.ignored.length > 0 && <p class='muted small'>Ignored columns: {upload.ignored.join(', ')}.</p>}
      {problems.length > 0 && (
        <div class='notice notice-error' role='alert'>
          <h3 class='problems-title'>Rows that will not be sent</h3>
          <ul class='problem-list'>
            {problems.slice(0, 20).map((r) => (
              <li key={r.row}>
                <strong>Row {r.row}</strong>
                {r.values.name || r.values.email ? ` (${r.values.name || r.values.email})` : ''}: {r.problems.join(' ')}
              </li>
            ))}
          </ul>
          {problems.length > 20 && <p>And {formatNumber(problems.length - 20)} more, marked in the table.</p>}
        </div>
      )}
      {children}
      {upload.rows.length > 0 && (
        <>
          <h3 class='bulk-rows-title'>Every row of the file</h3>
          {problems.length > 0 && (
            <CheckboxField
              id='only-problems'
              label='Show only the rows with problems'
              checked={onlyProblems}
              onChecked={setOnlyProblems}
            />
          )}
          <div class='table-wrap bulk-table-wrap' role='region' aria-label='Rows of the file' tabIndex={0}>
            <table class='bulk-table'>
              <caption class='visually-hidden'>Rows of the file and their problems</caption>
              <thead>
                <tr>
                  <th scope='col'>Row</th>
                  {cols.map((k) => <th key={k} scope='col'>{LABEL[k]}</th>)}
                  <th scope='col'>Check</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((r) => (
                  <tr key={r.row} class={r.input ? undefined : 'row-problem'}>
                    <th scope='row'>{r.row}</th>
                    {cols.map((k) => (
                      <td key={k} class='cell-text' data-label={LABEL[k]}>
                        <span>{r.values[k] || <span class='muted'>—</span>}</span>
                      </td>
                    ))}
                    <td data-label='Check'>
                      {r.input ? <Badge tone='good'>Ready</Badge> : (
                        <div>
                          <Badge tone='bad'>Problem</Badge>
                          <span class='row-problems'>{r.problems.join(' ')}</span>
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {visible.length < shown.length && (
            <button type='button' class='button' onClick={() => setShowAll(true)}>
              Show all {formatNumber(shown.length)} rows
            </button>
          )}
        </>
      )}
    </section>
  );
}

function Results({ outcomes, upload, onAgain }: { outcomes: Outcome[]; upload: Upload; onAgain: () => void }) {
  const appPath = useAppPath();
  const accepted = outcomes.filter((o) => o.request);
  const refused = outcomes.filter((o) => o.sent && !o.request);
  const skipped = outcomes.filter((o) => !o.sent);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // The answer replaces the preview: screen readers start from its heading.
  useEffect(() => heading.current?.focus(), []);
  const shown = onlyProblems ? outcomes.filter((o) => !o.request) : outcomes;
  const download = () =>
    downloadText(
      `${upload.fileName.replace(/\.csv$/i, '')}-results.csv`,
      toCsv([
        ['row', 'email', 'name', 'result', 'request_id', 'message'],
        ...outcomes.map((o) => [
          o.row.row,
          o.row.values.email,
          o.row.values.name,
          o.request ? 'queued' : o.sent ? 'refused' : 'not sent',
          o.request?.id ?? '',
          o.message ?? '',
        ]),
      ]),
    );
  return (
    <section aria-labelledby='bulk-results'>
      <h2 id='bulk-results' ref={heading} tabIndex={-1}>Result for {upload.fileName}</h2>
      <Notice tone={accepted.length ? 'success' : 'error'}>
        {formatNumber(accepted.length)} review request{accepted.length === 1 ? '' : 's'} queued
        {refused.length ? `, ${formatNumber(refused.length)} refused by the server` : ''}
        {skipped.length ? `, ${formatNumber(skipped.length)} not sent because of problems in the file` : ''}.
        {accepted.length > 0 && ' The e-mails go out over the next minutes.'}
      </Notice>
      <div class='actions bulk-result-actions'>
        <a class='button primary' href={appPath('/requests')}>See the requests</a>
        <button type='button' class='button' onClick={download}>Download the result (CSV)</button>
        <button type='button' class='button' onClick={onAgain}>Send another file</button>
      </div>
      {(refused.length > 0 || skipped.length > 0) && (
        <CheckboxField
          id='only-unsent'
          label='Show only the rows not sent'
          checked={onlyProblems}
          onChecked={setOnlyProblems}
        />
      )}
      <div class='table-wrap' role='region' aria-label='Result of each row' tabIndex={0}>
        <table class='bulk-table'>
          <caption class='visually-hidden'>What happened to each row</caption>
          <thead>
            <tr>
              <th scope='col'>Row</th>
              <th scope='col'>Customer</th>
              <th scope='col'>Result</th>
            </tr>
          </thead>
          <tbody>
            {shown.slice(0, 1000).map((o) => (
              <tr key={o.row.row} class={o.request ? undefined : 'row-problem'}>
                <th scope='row'>{o.row.row}</th>
                <td class='cell-text' data-label='Customer'>
                  <div>
                    {o.row.values.name || <span class='muted'>No name</span>}
                    <span class='muted small rr-email'>{o.row.values.email || 'No e-mail'}</span>
                  </div>
                </td>
                <td data-label='Result'>
                  {o.request
                    ? (
                      <div>
                        <StatusBadge status={o.request.status} />{' '}
                        <a href={appPath(`/requests/${o.request.id}`)}>
                          Open<span class='visually-hidden'>{` the request to ${o.request.email}`}</span>
                        </a>
                      </div>
                    )
                    : (
                      <div>
                        <Badge tone='bad'>{o.sent ? 'Refused' : 'Not sent'}</Badge>
                        <span class='row-problems'>{o.message}</span>
                      </div>
                    )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
