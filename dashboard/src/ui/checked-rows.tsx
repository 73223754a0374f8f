// A file's rows checked in the browser before anything is sent (the review requests' CSV, the
// product catalog's): the file's own problems, how many rows are ready, every row with a problem
// named by its number and reason, then every row in a table (only the problems on request).
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Badge, Notice } from './components.tsx';
import { CheckboxField } from './fields.tsx';
import { formatNumber } from './format.ts';

/** Rows shown in the table before "Show all". */
const PREVIEW_ROWS = 200;

export interface CheckedRow<K extends string> {
  /** The row's number as a spreadsheet shows it (the header is row 1). */
  row: number;
  values: Record<K, string>;
  problems: string[];
  /** What the row sends; none when it has a problem. */
  input?: unknown;
}

export function CheckedRows<K extends string>(
  { title, rows, columns, labels, ignored, fileProblems, nameOf, children }: {
    title: string;
    rows: CheckedRow<K>[];
    columns: K[];
    labels: Record<K, string>;
    ignored: string[];
    fileProblems: string[];
    /** What names a row beside its number in the list of problems ('' for nothing). */
    nameOf: (values: Record<K, string>) => string;
    /** What to do with the ready rows, between the problems and the table. */
    children: ComponentChildren;
  },
) {
  // Give the component a key per file: a new file starts with every row shown.
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const ready = rows.filter((r) => r.input).length;
  const problems = rows.filter((r) => !r.input);
  const shown = onlyProblems ? problems : rows;
  const visible = showAll ? shown : shown.slice(0, PREVIEW_ROWS);

  return (
    <section class='card' aria-labelledby='rows-preview'>
      <h2 id='rows-preview'>{title}</h2>
      {fileProblems.map((p) => <Notice key={p} tone='error'>{p}</Notice>)}
      {rows.length > 0 && (
        <p class='bulk-summary' role='status'>
          <strong>{formatNumber(rows.length)}</strong> row{rows.length === 1 ? '' : 's'}:{' '}
          <Badge tone='good'>{`${formatNumber(ready)} ready`}</Badge>{' '}
          {problems.length > 0 && <Badge tone='bad'>{`${formatNumber(problems.length)} with problems`}</Badge>}
        </p>
      )}
      {ignored.length > 0 && <p class='muted small'>Ignored columns: {ignored.join(', ')}.</p>}
      {problems.length > 0 && (
        <div class='notice notice-error' role='alert'>
          <h3 class='problems-title'>Rows that will not be sent</h3>
          <ul class='problem-list'>
            {problems.slice(0, 20).map((r) => {
              const name = nameOf(r.values);
              return (
                <li key={r.row}>
                  <strong>Row {r.row}</strong>
                  {name ? ` (${name})` : ''}: {r.problems.join(' ')}
                </li>
              );
            })}
          </ul>
          {problems.length > 20 && <p>And {formatNumber(problems.length - 20)} more, marked in the table.</p>}
        </div>
      )}
      {children}
      {rows.length > 0 && (
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
                  {columns.map((k) => <th key={k} scope='col'>{labels[k]}</th>)}
                  <th scope='col'>Check</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((r) => (
                  <tr key={r.row} class={r.input ? undefined : 'row-problem'}>
                    <th scope='row'>{r.row}</th>
                    {columns.map((k) => (
                      <td key={k} class='cell-text' data-label={labels[k]}>
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

/** The columns a file can have, folded under "Columns the file can have", with a note below. */
export function FileColumns({ columns, note }: {
  columns: { key: string; required?: boolean; what: ComponentChildren }[];
  note: ComponentChildren;
}) {
  return (
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
            {columns.map((c) => (
              <tr key={c.key}>
                <td>
                  <code>{c.key}</code>
                  {c.required ? ' (required)' : ''}
                </td>
                <td>{c.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class='muted small'>{note}</p>
    </details>
  );
}
