// The CSV upload's views: how it works and the columns, the preview of every row with its
// problems, and the result with the rows the API refused.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { toCsv } from '../../csv.ts';
import { useAppPath } from '../../session.ts';
import { Badge, Notice } from '../../ui/components.tsx';
import { downloadText } from '../../ui/download.ts';
import { CheckboxField } from '../../ui/fields.tsx';
import { formatNumber } from '../../ui/format.ts';
import { FIELD_BY_KEY, PRODUCT_FIELDS, type ProductKey } from './fields.ts';
import type { Sending, Upload } from './upload.tsx';

/** Rows shown in the preview before "Show all". */
const PREVIEW_ROWS = 200;

export function Intro() {
  return (
    <section class='card' aria-labelledby='upload-how'>
      <h2 id='upload-how'>How it works</h2>
      <ol class='steps'>
        <li>Export your catalog from your shop, or fill in the template.</li>
        <li>Choose or drop the file: you see every row and its problems before anything is sent.</li>
        <li>Upload the ready rows. A product whose id you have already is updated; uploading a file twice is safe.</li>
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
              {PRODUCT_FIELDS.map((f) => (
                <tr key={f.key}>
                  <td>
                    <code>{f.key}</code>
                    {f.required ? ' (required)' : ''}
                  </td>
                  <td>{f.what}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p class='muted small'>
          The first row names the columns; other columns are ignored. A Google Merchant feed's names (id, title, link,
          image_link, item_group_id) are read too.
        </p>
      </details>
    </section>
  );
}

export function Preview({ upload, children }: { upload: Upload; children: ComponentChildren }) {
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const ready = upload.rows.filter((r) => r.input).length;
  const problems = upload.rows.filter((r) => !r.input);
  const shown = onlyProblems ? problems : upload.rows;
  const visible = showAll ? shown : shown.slice(0, PREVIEW_ROWS);
  const cols: ProductKey[] = upload.columns.length ? upload.columns : ['external_id', 'name'];

  return (
    <section class='card' aria-labelledby='upload-preview'>
      <h2 id='upload-preview'>Preview of {upload.fileName}</h2>
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
                {r.values.external_id ? ` (${r.values.external_id})` : ''}: {r.problems.join(' ')}
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
                  {cols.map((k) => <th key={k} scope='col'>{FIELD_BY_KEY[k].label}</th>)}
                  <th scope='col'>Check</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((r) => (
                  <tr key={r.row} class={r.input ? undefined : 'row-problem'}>
                    <th scope='row'>{r.row}</th>
                    {cols.map((k) => (
                      <td key={k} class='cell-text' data-label={FIELD_BY_KEY[k].label}>
                        <span class='cell-clip' title={r.values[k]}>{r.values[k] || <span class='muted'>—</span>}</span>
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

export function Result({ upload, sending, onAgain }: { upload: Upload; sending: Sending; onAgain: () => void }) {
  const appPath = useAppPath();
  const heading = useRef<HTMLHeadingElement>(null);
  // The result replaces the preview: screen readers start from its heading.
  useEffect(() => heading.current?.focus(), []);
  const { created, updated, unchanged, rejected } = sending.totals;
  const skipped = upload.rows.filter((r) => !r.input);
  const byRow = new Map(upload.rows.map((r) => [r.row, r]));
  const notLanded = [
    ...skipped.map((r) => ({ row: r.row, why: 'Not sent', message: r.problems.join(' ') })),
    ...rejected.map((r) => ({ row: r.row, why: 'Refused', message: r.message })),
  ].sort((a, b) => a.row - b.row);
  const download = () =>
    downloadText(
      `${upload.fileName.replace(/\.csv$/i, '')}-problems.csv`,
      toCsv([
        ['row', 'external_id', 'name', 'result', 'message'],
        ...notLanded.map((n) => [
          n.row,
          byRow.get(n.row)?.values.external_id,
          byRow.get(n.row)?.values.name,
          n.why.toLowerCase(),
          n.message,
        ]),
      ]),
    );
  return (
    <section aria-labelledby='upload-result'>
      <h2 id='upload-result' ref={heading} tabIndex={-1}>Result for {upload.fileName}</h2>
      <Notice tone={notLanded.length ? 'info' : 'success'}>
        {formatNumber(created)} added, {formatNumber(updated)} updated, {formatNumber(unchanged)} unchanged
        {rejected.length ? `, ${formatNumber(rejected.length)} refused by the server` : ''}
        {skipped.length ? `, ${formatNumber(skipped.length)} not sent because of problems in the file` : ''}.
      </Notice>
      <div class='actions bulk-result-actions'>
        <a class='button primary' href={appPath('/products')}>See the products</a>
        {notLanded.length > 0 && (
          <button type='button' class='button' onClick={download}>Download the rows not uploaded (CSV)</button>
        )}
        <button type='button' class='button' onClick={onAgain}>Upload another file</button>
      </div>
      {notLanded.length > 0 && (
        <div class='table-wrap' role='region' aria-label='Rows not uploaded' tabIndex={0}>
          <table class='bulk-table'>
            <caption class='visually-hidden'>Rows not uploaded, and why</caption>
            <thead>
              <tr>
                <th scope='col'>Row</th>
                <th scope='col'>Product</th>
                <th scope='col'>Why</th>
              </tr>
            </thead>
            <tbody>
              {notLanded.slice(0, 1000).map((n) => (
                <tr key={n.row} class='row-problem'>
                  <th scope='row'>{n.row}</th>
                  <td class='cell-text' data-label='Product'>
                    <span class='cell-clip'>{byRow.get(n.row)?.values.external_id || '—'}</span>
                  </td>
                  <td data-label='Why'>
                    <Badge tone='bad'>{n.why}</Badge>
                    <span class='row-problems'>{n.message}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
