// After sending a file: what happened to each row, and the result as a CSV file.
import { useEffect, useRef, useState } from 'preact/hooks';
import { toCsv } from '../../csv.ts';
import { useAppPath } from '../../session.ts';
import { Badge, Notice } from '../../ui/components.tsx';
import { downloadText } from '../../ui/download.ts';
import { CheckboxField } from '../../ui/fields.tsx';
import { formatNumber } from '../../ui/format.ts';
import type { Outcome, Upload } from './bulk-rows.ts';
import { StatusBadge } from './status-badge.tsx';

export function Results({ outcomes, upload, onAgain }: { outcomes: Outcome[]; upload: Upload; onAgain: () => void }) {
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
