// Before sending a file: how it works, then every row of the file with its problems.
import type { ComponentChildren } from 'preact';
import { Badge, Notice } from '../../ui/components.tsx';
import { CheckboxField } from '../../ui/fields.tsx';
import { formatNumber } from '../../ui/format.ts';
import { COLUMNS, type Key, LABEL, type Upload } from './bulk-rows.ts';

/** Rows shown in the preview before "Show all". */
const PREVIEW_ROWS = 200;

export function Intro() {
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

export function Preview(
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
