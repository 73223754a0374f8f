// The CSV upload's views: how it works and the columns, the preview of every row with its
// problems (ui/checked-rows.tsx), and the result with the rows the API refused.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { toCsv } from '../../csv.ts';
import { useAppPath } from '../../session.ts';
import { Badge, Notice } from '../../ui/components.tsx';
import { downloadText } from '../../ui/download.ts';
import { CheckedRows, FileColumns } from '../../ui/checked-rows.tsx';
import { formatNumber } from '../../ui/format.ts';
import { PRODUCT_FIELDS, type ProductKey } from './fields.ts';
import type { Sending, Upload } from './upload.tsx';

const LABELS = Object.fromEntries(PRODUCT_FIELDS.map((f) => [f.key, f.label])) as Record<ProductKey, string>;

export function Intro() {
  return (
    <section class='card' aria-labelledby='upload-how'>
      <h2 id='upload-how'>How it works</h2>
      <ol class='steps'>
        <li>Export your catalog from your shop, or fill in the template.</li>
        <li>Choose or drop the file: you see every row and its problems before anything is sent.</li>
        <li>Upload the ready rows. A product whose id you have already is updated; uploading a file twice is safe.</li>
      </ol>
      <FileColumns
        columns={PRODUCT_FIELDS}
        note={"The first row names the columns; other columns are ignored. A Google Merchant feed's names (id, title, link, " +
          'image_link, item_group_id) are read too.'}
      />
    </section>
  );
}

export function Preview({ upload, children }: { upload: Upload; children: ComponentChildren }) {
  return (
    <CheckedRows
      key={upload.serial}
      title={`Preview of ${upload.fileName}`}
      rows={upload.rows}
      columns={upload.columns.length ? upload.columns : ['external_id', 'name']}
      labels={LABELS}
      ignored={upload.ignored}
      fileProblems={upload.fileProblems}
      nameOf={(v) => v.external_id}
    >
      {children}
    </CheckedRows>
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
