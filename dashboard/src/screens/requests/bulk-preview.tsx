// Before sending a file: how it works, then every row of the file with its problems (ui/checked-rows.tsx).
import type { ComponentChildren } from 'preact';
import { CheckedRows, FileColumns } from '../../ui/checked-rows.tsx';
import { COLUMNS, type Key, LABEL, type Upload } from './bulk-rows.ts';

export function Intro() {
  return (
    <section class='card' aria-labelledby='bulk-how'>
      <h2 id='bulk-how'>How it works</h2>
      <ol class='steps'>
        <li>Export your recent orders from your shop, or fill in the template.</li>
        <li>Choose or drop the file: you see every row and its problems before anything is sent.</li>
        <li>Send the valid rows. Trying again never e-mails anyone twice.</li>
      </ol>
      <FileColumns
        columns={COLUMNS.map((c) => ({
          ...c,
          what: (
            <>
              {c.what}
              <span class='muted small aliases'>Also read as: {c.aliases.join(', ')}.</span>
            </>
          ),
        }))}
        note='Other columns are ignored. The first row names the columns.'
      />
    </section>
  );
}

export function Preview({ upload, children }: {
  upload: Upload;
  /** What to do with the ready rows, between the problems and the table. */
  children: ComponentChildren;
}) {
  return (
    <CheckedRows
      key={upload.key}
      title={`Preview of ${upload.fileName}`}
      rows={upload.rows}
      columns={upload.columns.length ? upload.columns : (['email', 'name'] as Key[])}
      labels={LABEL}
      ignored={upload.ignored}
      fileProblems={upload.fileProblems}
      nameOf={(v) => v.name || v.email}
    >
      {children}
    </CheckedRows>
  );
}
