// Imports: a shop brings its reviews from Judge.me, Yotpo, Okendo, Loox, Shopify Product Reviews
// or another Plaudit. The file is read here with the server's own reader (the format found from the
// header row, each row checked), its first reviews shown as they will look and the refused rows
// named, before anything is sent; then the import runs in the background and its result shows.
import { useState } from 'preact/hooks';
import { api, type ApiError, type Schemas, upload } from '../api.ts';
import { IMPORT_FORMATS, type ImportFormat, PLATFORM_NAMES } from '../../../functions/_shared/core/imports/formats.ts';
import {
  type DateOrder,
  type ImportedReview,
  MAX_IMPORT_BYTES as MAX_BYTES,
  readImport,
} from '../../../functions/_shared/core/imports/read.ts';
import { useOrgId } from '../session.ts';
import { Badge, Empty, ErrorNotice, Loading, Notice, PageHeader, Pager, Stars } from '../ui/components.tsx';
import { FileDrop } from '../ui/file-drop.tsx';
import { CheckboxField, SelectField } from '../ui/fields.tsx';
import { formatDate, formatDateTime, formatNumber } from '../ui/format.ts';
import { useLoad, usePolling } from '../ui/hooks.ts';

type ImportJob = Schemas['Import'];
const PREVIEW = 5;

const STATUS: Record<ImportJob['status'], { label: string; tone: string }> = {
  pending: { label: 'Queued', tone: 'warn' },
  processing: { label: 'Importing', tone: 'warn' },
  completed: { label: 'Done', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
};

interface Chosen {
  file: File;
  bytes: Uint8Array;
}

export function Imports(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const [page, setPage] = useState(1);
  const [started, setStarted] = useState<string>();
  const list = useLoad(
    (signal) => api.get('/organizations/{orgId}/imports', { params: { orgId }, query: { page, limit: 20 }, signal }),
    [orgId, page],
  );
  const running = !!list.data?.data.some((j) => j.status === 'pending' || j.status === 'processing');
  usePolling(running, list.reload, started);
  const startedJob = list.data?.data.find((j) => j.id === started);

  return (
    <>
      <PageHeader title='Import reviews' />
      <p class='muted lede'>
        Bring the reviews you collected elsewhere. They keep their dates, replies and products, and show as imported
        from their platform: never as verified by Plaudit. Importing the same file again adds nothing.
      </p>
      <NewImport
        onStarted={(job) => {
          setStarted(job.id);
          if (page !== 1) setPage(1);
          else list.reload();
        }}
      />
      {startedJob && <Outcome job={startedJob} />}
      <h2 class='section-title'>Your imports</h2>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading the imports' />}
      {list.data && list.data.data.length === 0 && <Empty>No import yet.</Empty>}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='plain-list import-list'>
            {list.data.data.map((j) => (
              <li key={j.id} class='card'>
                <p>
                  <strong>{PLATFORM_NAMES[j.format]}</strong>{' '}
                  <Badge tone={STATUS[j.status].tone}>{STATUS[j.status].label}</Badge>
                  {j.dry_run && <Badge tone='plain'>Trial run</Badge>}
                </p>
                <p class='muted small'>
                  {formatDateTime(j.created_at)} · {formatNumber(j.total_rows)} rows · {formatNumber(j.imported)}{' '}
                  {j.dry_run ? 'would be imported' : 'imported'} · {formatNumber(j.duplicates)} already here ·{' '}
                  {formatNumber(j.rejected_count)} refused
                </p>
                {j.rejected_count > 0 && <Refusals job={j} />}
              </li>
            ))}
          </ul>
          <Pager meta={list.data.meta} onPage={setPage} />
        </>
      )}
    </>
  );
}

/** An import's refused rows, each with its reason: the first hundred, which the service keeps. */
function Refusals({ job }: { job: ImportJob }) {
  return (
    <details class='small import-refusals'>
      <summary>
        {job.rejected_count > job.rejected.length
          ? `See the first ${formatNumber(job.rejected.length)} refused rows`
          : `See the refused ${job.rejected_count === 1 ? 'row' : 'rows'}`}
      </summary>
      <ul class='plain-list'>
        {job.rejected.map((x) => <li key={x.row}>Row {x.row}: {x.message}</li>)}
      </ul>
      {job.rejected_count > job.rejected.length && (
        <p class='muted'>
          … and {formatNumber(job.rejected_count - job.rejected.length)}{' '}
          more. Fix the rows in the file and import it again: the reviews already imported are not imported twice.
        </p>
      )}
    </details>
  );
}

function Outcome({ job }: { job: ImportJob }) {
  if (job.status === 'failed') return <Notice tone='error'>The import failed. Nothing of it was kept.</Notice>;
  if (job.status !== 'completed') {
    return <Notice tone='info'>Importing… This page updates by itself; you can also leave and come back later.</Notice>;
  }
  return (
    <Notice tone='success'>
      {job.dry_run
        ? `Trial run done: ${formatNumber(job.imported)} reviews would be imported, ${
          formatNumber(job.duplicates)
        } are here already. Nothing was changed.`
        : `Imported ${formatNumber(job.imported)} reviews from ${PLATFORM_NAMES[job.format]} (${
          formatNumber(job.duplicates)
        } were here already).`}
      {job.rejected_count > 0 && (job.rejected_count === 1
        ? ' 1 row was refused: see it under Your imports.'
        : ` ${formatNumber(job.rejected_count)} rows were refused: see them under Your imports.`)}
    </Notice>
  );
}

function NewImport({ onStarted }: { onStarted: (job: ImportJob) => void }) {
  const orgId = useOrgId();
  const [chosen, setChosen] = useState<Chosen>();
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [dateOrder, setDateOrder] = useState<DateOrder | ''>('');
  const [dryRun, setDryRun] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<ApiError>();

  const choose = async (file: File | undefined) => {
    setError(undefined);
    if (!file) return;
    setChosen({ file, bytes: file.size > MAX_BYTES ? new Uint8Array(0) : new Uint8Array(await file.arrayBuffer()) });
    setFormat('');
    setDateOrder('');
  };
  const read = chosen && chosen.file.size <= MAX_BYTES
    ? readImport(chosen.bytes, format || null, { dateOrder: dateOrder || null })
    : undefined;
  const send = async () => {
    if (!chosen || !read?.ok) return;
    setSending(true);
    setError(undefined);
    const form = new FormData();
    form.append('file', chosen.file);
    form.append('format', read.format);
    form.append('dry_run', String(dryRun));
    if (dateOrder) form.append('date_order', dateOrder);
    try {
      const job = await upload('/organizations/{orgId}/imports', { params: { orgId }, form });
      // After a trial run the same file is most likely imported for real: it stays chosen, with its
      // platform and date order, and the button now imports it.
      if (!dryRun) setChosen(undefined);
      setDryRun(false);
      onStarted(job);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setSending(false);
    }
  };

  return (
    <section class='card' aria-labelledby='new-import-title'>
      <h2 id='new-import-title' class='section-title'>Import a file</h2>
      <FileDrop
        chosen={!!chosen}
        hint={
          <>
            The CSV your old platform exports (up to 20 MB): {IMPORT_FORMATS.map((f) => PLATFORM_NAMES[f]).join(', ')}.
          </>
        }
        onFile={(f) => void choose(f)}
      />
      {chosen && chosen.file.size > MAX_BYTES && (
        <Notice tone='error'>{chosen.file.name} is larger than 20 MB: export it in parts and import each.</Notice>
      )}
      {read && (
        <>
          <SelectField
            label='Platform'
            name='import-format'
            value={read.ok ? read.format : format}
            onValue={(v) => setFormat(v as ImportFormat)}
            options={[['', 'Find it from the file'], ...IMPORT_FORMATS.map((f) => [f, PLATFORM_NAMES[f]] as const)]}
            hint={read.ok && !format ? `Found from the file's header: ${PLATFORM_NAMES[read.format]}.` : undefined}
          />
          {!read.ok && <Notice tone='error'>{read.message}</Notice>}
          {read.ok && (read.ambiguous_dates > 0 || dateOrder) && (
            <SelectField
              label='Date order of the file'
              name='import-date-order'
              value={dateOrder}
              onValue={(v) => setDateOrder(v as DateOrder | '')}
              options={[
                ['', 'Not chosen: dates like 07/04/2024 are refused'],
                ['dmy', 'Day first: 07/04/2024 is 7 April 2024'],
                ['mdy', 'Month first: 07/04/2024 is July 4, 2024'],
              ]}
              hint={read.ambiguous_dates > 0
                ? `${formatNumber(read.ambiguous_dates)} ${
                  read.ambiguous_dates === 1 ? 'row has a date' : 'rows have dates'
                } whose day and month could be either way round: choose how your old platform wrote dates.`
                : undefined}
            />
          )}
          {read.ok && <Preview read={read} />}
          {read.ok && (
            <>
              <CheckboxField
                id='import-dry-run'
                label='Trial run: count what would be imported, change nothing'
                checked={dryRun}
                onChecked={setDryRun}
              />
              <button
                class='button primary'
                type='button'
                disabled={sending || read.reviews.length === 0}
                onClick={() => void send()}
              >
                {sending
                  ? 'Sending…'
                  : dryRun
                  ? 'Start the trial run'
                  : `Import ${formatNumber(read.reviews.length)} reviews`}
              </button>
            </>
          )}
        </>
      )}
      <ErrorNotice error={error} />
    </section>
  );
}

function Preview({ read }: { read: Extract<ReturnType<typeof readImport>, { ok: true }> }) {
  const { reviews, rejected } = read;
  return (
    <div class='import-preview'>
      <p>
        {formatNumber(read.total_rows)} rows: {formatNumber(reviews.length)} can be imported
        {read.duplicates > 0 && `, ${formatNumber(read.duplicates)} repeat a row above`}
        {read.rejected_count > 0 && `, ${formatNumber(read.rejected_count)} cannot`}.
      </p>
      <h3>The first reviews, as they will show</h3>
      <ul class='plain-list'>
        {reviews.slice(0, PREVIEW).map((r: ImportedReview) => (
          <li key={r.row} class='import-review'>
            <Stars rating={r.rating} /> {r.title && <strong>{r.title}</strong>}
            <p>{r.content}</p>
            <p class='muted small'>
              {r.reviewer_name} · {formatDate(r.created_at)}
              {r.product_name && ` · ${r.product_name}`}
              {!r.published && ' · hidden (not published there)'}
              {r.reply && ' · with your reply'}
            </p>
          </li>
        ))}
      </ul>
      {rejected.length > 0 && (
        <>
          <h3>Rows that cannot be imported</h3>
          <ul class='plain-list small'>
            {rejected.map((x) => <li key={x.row}>Row {x.row}: {x.message}</li>)}
          </ul>
          {read.rejected_count > rejected.length && (
            <p class='muted small'>… and {formatNumber(read.rejected_count - rejected.length)} more.</p>
          )}
        </>
      )}
    </div>
  );
}
