// Exports: a file of the organization's reviews, as CSV for spreadsheets or JSON for developers,
// with the contract's filters; the list of files made, refreshed while one is being prepared, and
// each finished file's download (a plain link: the session cookie goes with a GET).
import { useState } from 'preact/hooks';
import { api, apiUrl, fillPath, type Schemas } from '../api.ts';
import { useOrgId } from '../session.ts';
import { Badge, Empty, ErrorNotice, Loading, Notice, PageHeader, Pager } from '../ui/components.tsx';
import { SelectField, TextField } from '../ui/fields.tsx';
import { formatDate, formatDateTime, formatNumber } from '../ui/format.ts';
import { useAction, useLoad, usePolling } from '../ui/hooks.ts';

type ExportJob = Schemas['ExportJob'];
type ExportInput = Schemas['ExportInput'];
type ReviewForm = Schemas['ReviewForm'];

export function formatBytes(n: number): string {
  if (n < 1024) return `${formatNumber(n)} bytes`;
  if (n < 1024 * 1024) return `${formatNumber(Math.round(n / 102.4) / 10)} KB`;
  return `${formatNumber(Math.round(n / (1024 * 104.857)) / 10)} MB`;
}

const STATUS: Record<ExportJob['status'], { label: string; tone: string }> = {
  pending: { label: 'Queued', tone: 'warn' },
  processing: { label: 'Preparing', tone: 'warn' },
  completed: { label: 'Ready', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
};

export function Exports(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const [page, setPage] = useState(1);
  const [started, setStarted] = useState<string>();
  const list = useLoad(
    (signal) => api.get('/organizations/{orgId}/exports', { params: { orgId }, query: { page, limit: 20 }, signal }),
    [orgId, page],
  );
  const forms = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/review-forms', { params: { orgId }, query: { limit: 100 }, signal }).catch(() =>
        null
      ),
    [orgId],
  );
  const running = !!list.data?.data.some((j) => j.status === 'pending' || j.status === 'processing');
  usePolling(running, list.reload, started);
  const formName = new Map((forms.data?.data ?? []).map((f) => [f.id, f.name]));
  const startedJob = list.data?.data.find((j) => j.id === started);

  return (
    <>
      <PageHeader title='Exports' />
      <p class='muted lede'>
        Download your reviews as a file: CSV opens in Excel, Numbers or Google Sheets; JSON has every field, for
        developers. Files can be downloaded for 7 days.
      </p>
      <NewExport
        forms={forms.data?.data ?? []}
        onCreated={(job) => {
          setStarted(job.id);
          if (page !== 1) setPage(1);
          else list.reload();
        }}
      />
      {startedJob && (
        <Notice
          tone={startedJob.status === 'failed' ? 'error' : startedJob.status === 'completed' ? 'success' : 'info'}
        >
          {startedJob.status === 'completed'
            ? `Your export is ready: ${formatNumber(startedJob.row_count)} reviews. Download it below.`
            : startedJob.status === 'failed'
            ? 'Your export failed. The reason is in the list below.'
            : 'Your export is being prepared. This page updates by itself; you can also leave and come back later.'}
        </Notice>
      )}

      <h2 class='section-title'>Your exports</h2>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading the exports' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>No export yet. Choose a format above and create your first one.</Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class='table-wrap stack-table'>
            <table>
              <caption class='visually-hidden'>Exports, newest first</caption>
              <thead>
                <tr>
                  <th scope='col'>Requested</th>
                  <th scope='col'>Reviews</th>
                  <th scope='col'>Status</th>
                  <th scope='col'>File</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((j) => <ExportRow key={j.id} job={j} formName={formName} />)}
              </tbody>
            </table>
          </div>
          <Pager meta={list.data.meta} onPage={setPage} />
        </>
      )}
    </>
  );
}

/** A filter's day (`2026-01-31`, UTC) as the browser writes dates. */
const day = (d: string) => utcDay.format(new Date(`${d}T00:00:00Z`));
const utcDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

function describeFilters(f: ExportJob['filters'], formName: Map<string, string>): string {
  const parts: string[] = [];
  if (f.startDate && f.endDate) parts.push(`${day(f.startDate)} to ${day(f.endDate)}`);
  else if (f.startDate) parts.push(`Since ${day(f.startDate)}`);
  else if (f.endDate) parts.push(`Until ${day(f.endDate)}`);
  else parts.push('All dates');
  if (f.rating) parts.push(`${f.rating} star${f.rating === 1 ? '' : 's'}`);
  if (f.form_id) parts.push(`form “${formName.get(f.form_id) ?? 'deleted form'}”`);
  parts.push(f.include_hidden ? 'hidden ones included' : 'published only');
  return parts.join(', ');
}

function ExportRow({ job: j, formName }: { job: ExportJob; formName: Map<string, string> }) {
  const orgId = useOrgId();
  const expired = j.status === 'completed' && !!j.expires_at && Date.parse(j.expires_at) < Date.now();
  const status = expired ? { label: 'Expired', tone: 'plain' } : STATUS[j.status];
  const format = j.format.toUpperCase();
  return (
    <tr>
      <td data-label='Requested'>{formatDateTime(j.created_at)}</td>
      <td data-label='Reviews'>
        {describeFilters(j.filters, formName)}
      </td>
      <td data-label='Status'>
        <Badge tone={status.tone}>{status.label}</Badge>
      </td>
      <td data-label='File'>
        {j.status === 'completed' && !expired && (
          <div>
            <a
              class='button'
              href={apiUrl(fillPath('/organizations/{orgId}/exports/{id}/download', { orgId, id: j.id }))}
              download
            >
              Download {format}
              <span class='visually-hidden'>{` of ${formatDateTime(j.created_at)}`}</span>
            </a>
            <p class='muted small cell-note'>
              {formatNumber(j.row_count)} review{j.row_count === 1 ? '' : 's'}, {formatBytes(j.byte_size)}
              {j.expires_at ? `, until ${formatDate(j.expires_at)}` : ''}
            </p>
          </div>
        )}
        {expired && <span class='muted small'>{format} file expired {formatDate(j.expires_at)}; create a new one.
        </span>}
        {(j.status === 'pending' || j.status === 'processing') && (
          <span class='muted small'>
            {format}
            {j.row_count > 0 ? `, ${formatNumber(j.row_count)} reviews so far` : ''}…
          </span>
        )}
        {j.status === 'failed' && <span class='bad-text small'>{j.error ?? 'The export failed.'}</span>}
      </td>
    </tr>
  );
}

function NewExport({ forms, onCreated }: { forms: ReviewForm[]; onCreated: (j: ExportJob) => void }) {
  const orgId = useOrgId();
  const [format, setFormat] = useState<ExportInput['format']>('csv');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [rating, setRating] = useState('');
  const [formId, setFormId] = useState('');
  const [includeHidden, setIncludeHidden] = useState(false);
  const create = useAction(async () => {
    const filters: NonNullable<ExportInput['filters']> = {};
    if (startDate) filters.startDate = startDate;
    if (endDate) filters.endDate = endDate;
    if (rating) filters.rating = Number(rating);
    if (formId) filters.form_id = formId;
    if (includeHidden) filters.include_hidden = true;
    const job = await api.post('/organizations/{orgId}/exports', { params: { orgId }, body: { format, filters } });
    onCreated(job);
  });
  const err = create.error;
  const known = ['format', 'filters.startDate', 'filters.endDate', 'filters.rating', 'filters.form_id'];
  return (
    <form
      class='card'
      aria-labelledby='new-export-title'
      onSubmit={(e) => {
        e.preventDefault();
        void create.run();
      }}
    >
      <h2 id='new-export-title'>New export</h2>
      {err && !known.some((f) => err.field(f)) && <ErrorNotice error={err} />}
      <fieldset class='choices'>
        <legend>Format</legend>
        <div class='choice-row'>
          <label class='choice'>
            <input type='radio' name='format' checked={format === 'csv'} onChange={() => setFormat('csv')} />
            <span>
              <strong>CSV</strong>
              <span class='hint'>For spreadsheets</span>
            </span>
          </label>
          <label class='choice'>
            <input type='radio' name='format' checked={format === 'json'} onChange={() => setFormat('json')} />
            <span>
              <strong>JSON</strong>
              <span class='hint'>Every field, for developers</span>
            </span>
          </label>
        </div>
        {err?.field('format') && <p class='field-error'>{err.field('format')}</p>}
      </fieldset>
      <div class='export-filters'>
        <TextField
          label='From'
          name='filters.startDate'
          error={err}
          hint='Written on or after this day (UTC).'
          type='date'
          value={startDate}
          onValue={setStartDate}
        />
        <TextField
          label='To'
          name='filters.endDate'
          error={err}
          hint='Up to the end of this day (UTC).'
          type='date'
          value={endDate}
          onValue={setEndDate}
        />
        <SelectField
          label='Rating'
          name='filters.rating'
          error={err}
          value={rating}
          onValue={setRating}
          options={[
            ['', 'Any rating'],
            ...[5, 4, 3, 2, 1].map((n) => [`${n}`, `${n} star${n === 1 ? '' : 's'}`] as const),
          ]}
        />
        <SelectField
          label='Form'
          name='filters.form_id'
          error={err}
          value={formId}
          onValue={setFormId}
          options={[['', 'Every form'], ...forms.map((f) => [f.id, f.name] as const)]}
        />
      </div>
      <label class='check'>
        <input type='checkbox' checked={includeHidden} onChange={(e) => setIncludeHidden(e.currentTarget.checked)} />
        Include reviews hidden by moderation
      </label>
      <div class='actions'>
        <button type='submit' class='button primary' disabled={create.pending}>
          {create.pending ? 'Creating…' : 'Create export'}
        </button>
      </div>
    </form>
  );
}
