// Sending review requests from a CSV file: the file is read and checked in the browser, a preview
// names every row's problem before anything is sent, only the valid rows go out in one call with an
// Idempotency-Key made once per file (a double click, a retry after a lost answer, sends nobody a
// second e-mail), and the answer is shown row by row.
import { useRef, useState } from 'preact/hooks';
import { api, newIdempotencyKey } from '../../api.ts';
import { decodeCsvBytes, parseCsv } from '../../csv.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { ErrorNotice, Field, Loading, Notice, PageHeader } from '../../ui/components.tsx';
import { downloadText } from '../../ui/download.ts';
import { FileDrop } from '../../ui/file-drop.tsx';
import { formatNumber } from '../../ui/format.ts';
import { useAction, useLoad } from '../../ui/hooks.ts';
import { Intro, Preview } from './bulk-preview.tsx';
import { Results } from './bulk-results.tsx';
import {
  checkRows,
  MAX_BODY_BYTES,
  MAX_FILE_BYTES,
  MAX_ROWS,
  type Outcome,
  outcomes,
  templateCsv,
  type Upload,
} from './bulk-rows.ts';
import { RequestTabs } from './tabs.tsx';
import { useForms } from '../../ui/use-forms.ts';

export function BulkRequests(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const forms = useForms();
  const settings = useLoad(
    (signal) => api.get('/organizations/{orgId}/review-requests/settings', { params: { orgId }, signal }),
    [orgId],
  );
  const [upload, setUpload] = useState<Upload>();
  const [reading, setReading] = useState<string>();
  const [result, setResult] = useState<Outcome[]>();
  const [formId, setFormId] = useState('');
  const [attempted, setAttempted] = useState(false);
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
      const { rows } = parseCsv(decodeCsvBytes(await file.arrayBuffer()));
      setUpload({ fileName: file.name, key: newIdempotencyKey(), ...checkRows(rows) });
    } finally {
      setReading(undefined);
    }
  };

  const send = useAction(async () => {
    if (!upload || !body) return;
    setAttempted(true);
    const answer = await api.post('/organizations/{orgId}/review-requests/bulk', {
      params: { orgId },
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
          <FileDrop
            chosen={Boolean(upload)}
            onFile={(f) => void read(f)}
            hint={`or drop it here. Up to ${formatNumber(MAX_ROWS)} customers per file; commas or semicolons.`}
          />
          {reading && <Loading what={`Reading ${reading}`} />}
          {upload && (
            <Preview upload={upload}>
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
