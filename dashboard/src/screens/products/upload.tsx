// A catalog from a CSV file: read and checked in the browser (every bad row named with its reason
// before anything is sent), the good rows sent to the bulk sync in calls of 1,000 with a progress
// bar, and the result counted, the API's refusals named by the file's rows. Sending a call twice
// changes nothing the second time, so a stopped upload is resumed from the call that failed.
import { useRef, useState } from 'preact/hooks';
import { api, type ApiError } from '../../api.ts';
import { decodeCsvBytes, parseCsv } from '../../csv.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Loading, Notice, PageHeader } from '../../ui/components.tsx';
import { downloadText } from '../../ui/download.ts';
import { FileDrop } from '../../ui/file-drop.tsx';
import { formatNumber } from '../../ui/format.ts';
import {
  addAnswer,
  type Catalog,
  type CatalogRow,
  catalogTemplate,
  checkCatalog,
  chunkRows,
  MAX_FILE_BYTES,
  MAX_FILE_ROWS,
  NO_TOTALS,
  type SyncTotals,
} from './catalog-rows.ts';
import { Intro, Preview, Result } from './upload-parts.tsx';

export interface Upload extends Catalog {
  fileName: string;
  /** Which file read this is: a new one starts its preview afresh. */
  serial: number;
}

let reads = 0;

/** Where sending stands: the calls, how many are answered, the totals so far, and why it stopped. */
export interface Sending {
  chunks: CatalogRow[][];
  done: number;
  totals: SyncTotals;
  error?: ApiError;
  finished: boolean;
}

export function UploadProducts(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const [upload, setUpload] = useState<Upload>();
  const [reading, setReading] = useState<string>();
  const [sending, setSending] = useState<Sending>();
  const running = useRef(false);

  const read = async (file: File | undefined) => {
    if (!file || running.current) return;
    setSending(undefined);
    if (file.size > MAX_FILE_BYTES) {
      setUpload({
        fileName: file.name,
        serial: ++reads,
        rows: [],
        columns: [],
        ignored: [],
        fileProblems: [
          `The file is larger than 10 MB: split it into files of at most 10 MB and ${
            formatNumber(MAX_FILE_ROWS)
          } products.`,
        ],
      });
      return;
    }
    setReading(file.name);
    try {
      const { rows } = parseCsv(decodeCsvBytes(await file.arrayBuffer()));
      setUpload({ fileName: file.name, serial: ++reads, ...checkCatalog(rows) });
    } finally {
      setReading(undefined);
    }
  };

  /** Sends the calls from `from.done` on, one after the other, keeping the totals as answers come. */
  const send = async (from: Sending) => {
    if (running.current) return;
    running.current = true;
    let state: Sending = { ...from, error: undefined };
    setSending(state);
    try {
      while (state.done < state.chunks.length) {
        const chunk = state.chunks[state.done];
        try {
          const answer = await api.put('/organizations/{orgId}/products', {
            params: { orgId },
            body: { products: chunk.map((r) => r.input!) },
          });
          state = { ...state, done: state.done + 1, totals: addAnswer(state.totals, chunk, answer) };
        } catch (e) {
          state = { ...state, error: e as ApiError };
          return;
        } finally {
          setSending(state);
        }
      }
      state = { ...state, finished: true };
      setSending(state);
    } finally {
      running.current = false;
    }
  };

  const start = () => {
    if (!upload) return;
    void send({ chunks: chunkRows(upload.rows), done: 0, totals: NO_TOTALS, finished: false });
  };
  const reset = () => {
    setUpload(undefined);
    setSending(undefined);
  };

  const ready = upload?.rows.filter((r) => r.input).length ?? 0;
  const bad = (upload?.rows.length ?? 0) - ready;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/products')}>Products</a>
      </p>
      <PageHeader title='Upload products from a CSV file'>
        <button type='button' class='button' onClick={() => downloadText('products-template.csv', catalogTemplate())}>
          Download the CSV template
        </button>
      </PageHeader>
      {sending?.finished ? <Result upload={upload!} sending={sending} onAgain={reset} /> : (
        <>
          {!upload && <Intro />}
          {!sending && (
            <FileDrop
              chosen={Boolean(upload)}
              onFile={(f) => void read(f)}
              hint={`or drop it here. Up to ${formatNumber(MAX_FILE_ROWS)} products and 10 MB; commas or semicolons.`}
            />
          )}
          {reading && <Loading what={`Reading ${reading}`} />}
          {upload && (
            <Preview upload={upload}>
              {ready > 0 && (
                <div class='bulk-send'>
                  <h3>Upload the ready rows</h3>
                  <p>
                    {bad > 0
                      ? `The ${formatNumber(bad)} row${
                        bad === 1 ? '' : 's'
                      } with problems will not be sent. Fix them in your file and upload it again, or send the others now.`
                      : 'Every row is ready.'}{' '}
                    Products are matched by their id: a new id adds a product, a known one is updated with the cells the
                    row fills (an empty cell leaves a field as it is).
                  </p>
                  {sending && <Progress sending={sending} />}
                  {sending?.error && (
                    <Notice tone='error'>
                      {sending.error.message} {formatNumber(sending.done)} of {formatNumber(sending.chunks.length)}{' '}
                      parts are uploaded. Trying again continues from where it stopped; nothing is added twice.
                    </Notice>
                  )}
                  <div class='actions'>
                    {!sending && (
                      <button type='button' class='button primary' onClick={start}>
                        Upload {formatNumber(ready)} product{ready === 1 ? '' : 's'}
                      </button>
                    )}
                    {sending?.error && (
                      <button type='button' class='button primary' onClick={() => void send(sending)}>
                        Try again
                      </button>
                    )}
                    {(!sending || sending.error) && (
                      <button type='button' class='button' onClick={reset}>Cancel</button>
                    )}
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

function Progress({ sending }: { sending: Sending }) {
  const rows = (n: number) => sending.chunks.slice(0, n).reduce((sum, c) => sum + c.length, 0);
  const total = rows(sending.chunks.length);
  const done = rows(sending.done);
  return (
    <div class='upload-progress'>
      <label for='upload-progress'>
        {sending.error ? 'Stopped at' : 'Uploading'}: {formatNumber(done)} of {formatNumber(total)} products
      </label>
      <progress id='upload-progress' max={total} value={done} />
    </div>
  );
}
