// Review requests: send one request by e-mail, the list of requests with their statuses (filters in
// the URL, pages), one request with its timeline, and the settings of the section (daily limit,
// reminders, the suppression list). The tabs at the top link the section's four screens.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Page, request, type Schemas } from '../api.ts';
import { setQuery, useLocation } from '../router.ts';
import { useAppPath, useOrgPath, useWorkspace } from '../session.ts';
import { Badge, Empty, ErrorNotice, Field, Loading, Notice, PageHeader, Pager } from '../ui/components.tsx';
import { Confirm } from '../ui/confirm.tsx';
import { QueryDate, QuerySelect, useQueryFilters } from '../ui/filters.tsx';
import { CheckboxField, NumberField, SelectField } from '../ui/fields.tsx';
import { formatDate, formatDateTime, formatNumber } from '../ui/format.ts';
import { useAction, useLoad } from '../ui/hooks.ts';

export type ReviewRequest = Schemas['ReviewRequest'];
type ReviewForm = Schemas['ReviewForm'];
type RequestEvent = Schemas['ReviewRequestEvent'];
type Settings = Schemas['ReviewRequestSettings'];
type Suppression = Schemas['Suppression'];
export type RequestStatus = ReviewRequest['status'];

// ---------------------------------------------------------------------------------------------
// What the section's screens share

export const STATUS_LABEL: Record<RequestStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked',
  completed: 'Reviewed',
  bounced: 'Bounced',
  complained: 'Marked as spam',
  unsubscribed: 'Unsubscribed',
  failed: 'Not sent',
};

const STATUS_TONE: Record<RequestStatus, string> = {
  queued: 'warn',
  sent: 'plain',
  delivered: 'plain',
  opened: 'plain',
  clicked: 'plain',
  completed: 'good',
  bounced: 'bad',
  complained: 'bad',
  unsubscribed: 'bad',
  failed: 'bad',
};

export function StatusBadge({ status }: { status: RequestStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>;
}

const SUPPRESSION_REASON: Record<Suppression['reason'], string> = {
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Marked as spam',
  manual: 'Added by your team',
};

/** An Idempotency-Key: one per thing the person means to send, so a retry never sends it twice. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The organization's review forms (for choosing one and for naming them in lists). */
export function useForms() {
  const orgPath = useOrgPath();
  return useLoad(
    (signal) => api.get<Page<ReviewForm>>(orgPath('/review-forms'), { limit: 100 }, signal),
    [orgPath()],
  );
}

const TABS: [string, string][] = [
  ['Requests', '/requests'],
  ['Send from CSV', '/requests/bulk'],
  ['Statistics', '/requests/stats'],
  ['Settings', '/requests/settings'],
];

/** The section's tabs: the list, sending from a file, the statistics and the settings. */
export function RequestTabs() {
  const appPath = useAppPath();
  const { path } = useLocation();
  const here = path.replace(/\/+$/, '');
  const others = TABS.slice(1).map(([, p]) => appPath(p));
  return (
    <nav class='tabs' aria-label='Review request pages'>
      <ul>
        {TABS.map(([label, p]) => {
          const href = appPath(p);
          // A request's own page belongs to the first tab.
          const current = here === href || (p === '/requests' && here.startsWith(`${href}/`) && !others.includes(here));
          return (
            <li key={p}>
              <a href={href} aria-current={current ? 'page' : undefined}>{label}</a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

// ---------------------------------------------------------------------------------------------
// /requests: send one, and the list

const FILTERS = ['status', 'email', 'form_id', 'external_id', 'startDate', 'endDate', 'page'] as const;

export function Requests(_: { params: Record<string, string> }) {
  const forms = useForms();
  const [sent, setSent] = useState<ReviewRequest>();
  const [tick, setTick] = useState(0);
  const appPath = useAppPath();
  return (
    <>
      <PageHeader title='Review requests' />
      <RequestTabs />
      <p class='muted section-intro'>
        Ask your customers for a review by e-mail. Everyone gets the same message, whatever they might think of you: the
        star links open your review form with that rating chosen, and any rating can be given.
      </p>
      {sent && (
        <Notice tone='success'>
          {sent.status === 'failed'
            ? (
              <>
                The request to {sent.email} was stored but not sent: the address is on your suppression list.{' '}
                <a href={appPath(`/requests/${sent.id}`)}>See the request</a>
              </>
            )
            : (
              <>
                Review request to {sent.email} is queued
                {Date.parse(sent.send_at) > Date.now() + 60_000 ? ` for ${formatDateTime(sent.send_at)}` : ''}.{' '}
                <a href={appPath(`/requests/${sent.id}`)}>Follow its progress</a>
              </>
            )}
        </Notice>
      )}
      <ErrorNotice error={forms.error} />
      {forms.data && (
        <SendOne
          forms={forms.data.data}
          onSent={(r) => {
            setSent(r);
            setTick((t) => t + 1);
          }}
        />
      )}
      <RequestList forms={forms.data?.data ?? []} tick={tick} />
    </>
  );
}

function toIso(local: string): string | undefined {
  if (!local) return undefined;
  const t = new Date(local);
  return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
}

function localNow(): string {
  const d = new Date();
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
}

/** A refusal that names its field (`external_id: …`, `form_id: …`), said next to that field in the page's words. */
function fieldOfConflict(e: unknown): unknown {
  if (!(e instanceof ApiError) || (e.status !== 409 && e.status !== 404)) return e;
  if (e.message.startsWith('external_id:')) {
    const message = 'A request with this reference exists already, so this one is not sent: nobody is asked twice.';
    return new ApiError(e.status, message, [{ field: 'external_id', code: 'conflict', message }]);
  }
  if (e.message.startsWith('form_id:')) {
    const message = 'This form is not active any more: choose another one.';
    return new ApiError(e.status, message, [{ field: 'form_id', code: 'not_found', message }]);
  }
  return e;
}

function SendOne({ forms, onSent }: { forms: ReviewForm[]; onSent: (r: ReviewRequest) => void }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const active = forms.filter((f) => f.is_active);
  const empty = { email: '', name: '', order_id: '', external_id: '', locale: 'en', send_at: '' };
  const [v, setV] = useState(empty);
  const [formId, setFormId] = useState(active[0]?.id ?? '');
  // One key per request the person means to send: a retry of the same (after a lost answer) sends
  // nothing twice; a change makes it another request.
  const key = useRef(newIdempotencyKey());
  const set = (k: keyof typeof empty) => (e: Event) => {
    key.current = newIdempotencyKey();
    setV({ ...v, [k]: (e.currentTarget as HTMLInputElement).value });
  };
  const send = useAction(async () => {
    const body = {
      email: v.email.trim(),
      name: v.name.trim(),
      form_id: formId,
      order_id: v.order_id.trim() || undefined,
      external_id: v.external_id.trim() || undefined,
      locale: v.locale,
      send_at: toIso(v.send_at),
    };
    const r = await request<ReviewRequest>('POST', orgPath('/review-requests'), {
      body,
      headers: { 'idempotency-key': key.current },
    }).catch((e) => {
      throw fieldOfConflict(e);
    });
    key.current = newIdempotencyKey();
    setV({ ...empty, locale: v.locale });
    onSent(r);
    (document.getElementById('f-email') as HTMLInputElement | null)?.focus();
  });
  if (active.length === 0) {
    return (
      <section class='card' aria-labelledby='send-one'>
        <h2 id='send-one'>Send a review request</h2>
        <p>
          A request invites your customer to one of your review forms, and you have no active form yet.{' '}
          <a href={appPath('/forms')}>Create a review form</a> first.
        </p>
      </section>
    );
  }
  const fieldError = (name: string) => send.error?.field(name) ? send.error : undefined;
  const general = send.error && !['email', 'name', 'form_id', 'order_id', 'external_id', 'locale', 'send_at']
    .some((f) => send.error!.field(f));

  return (
    <section class='card' aria-labelledby='send-one'>
      <h2 id='send-one'>Send a review request</h2>
      <form
        class='send-form'
        onSubmit={(e) => {
          e.preventDefault();
          void send.run();
        }}
      >
        {general && <ErrorNotice error={send.error} />}
        <div class='field-grid'>
          <Field label="Customer's e-mail" name='email' error={fieldError('email')}>
            {(p) => (
              <input
                {...p}
                type='email'
                required
                maxLength={320}
                autoComplete='off'
                value={v.email}
                onInput={set('email')}
              />
            )}
          </Field>
          <Field
            label="Customer's name"
            name='name'
            error={fieldError('name')}
            hint='Used to greet them in the e-mail.'
          >
            {(p) => <input {...p} required maxLength={200} autoComplete='off' value={v.name} onInput={set('name')} />}
          </Field>
          <Field
            label='Order reference (optional)'
            name='order_id'
            error={fieldError('order_id')}
            hint='Carried to the review; forms that check purchases verify the review with it.'
          >
            {(p) => <input {...p} maxLength={200} value={v.order_id} onInput={set('order_id')} />}
          </Field>
          <Field label='Review form' name='form_id' error={fieldError('form_id')}>
            {(p) => (
              <select
                {...p}
                required
                value={formId}
                onChange={(e) => {
                  key.current = newIdempotencyKey();
                  setFormId(e.currentTarget.value);
                }}
              >
                {active.map((f) => <option key={f.id} value={f.id}>{f.name}</option>)}
              </select>
            )}
          </Field>
        </div>
        <details class='more-options' open={Boolean(send.error?.field('external_id') || send.error?.field('send_at'))}>
          <summary>More options: your reference, language, sending later</summary>
          <div class='field-grid'>
            <Field
              label='Your reference (optional)'
              name='external_id'
              error={fieldError('external_id')}
              hint='An id of your own system. A second request with the same reference is refused, so nobody is asked twice for one order.'
            >
              {(p) => <input {...p} maxLength={200} value={v.external_id} onInput={set('external_id')} />}
            </Field>
            <Field label='Language of the e-mail' name='locale' error={fieldError('locale')}>
              {(p) => (
                <select {...p} value={v.locale} onChange={set('locale')}>
                  <option value='en'>English</option>
                  <option value='de'>German</option>
                </select>
              )}
            </Field>
            <Field
              label='Send at (optional)'
              name='send_at'
              error={fieldError('send_at')}
              hint='Your local time, at most 90 days ahead. Empty: now.'
            >
              {(p) => (
                <input
                  {...p}
                  type='datetime-local'
                  min={localNow()}
                  value={v.send_at}
                  onInput={set('send_at')}
                />
              )}
            </Field>
          </div>
        </details>
        <div class='actions'>
          <button type='submit' class='button primary' disabled={send.pending}>
            {send.pending ? 'Sending…' : v.send_at ? 'Schedule request' : 'Send request'}
          </button>
        </div>
      </form>
    </section>
  );
}

function RequestList({ forms, tick }: { forms: ReviewForm[]; tick: number }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const { filters, key } = useQueryFilters(FILTERS);
  const list = useLoad(
    (signal) => api.get<Page<ReviewRequest>>(orgPath('/review-requests'), { ...filters, limit: 25 }, signal),
    [orgPath(), key, tick],
  );
  const [email, setEmail] = useState(filters.email);
  const [reference, setReference] = useState(filters.external_id);
  useEffect(() => setEmail(filters.email), [filters.email]);
  useEffect(() => setReference(filters.external_id), [filters.external_id]);
  const formName = new Map(forms.map((f) => [f.id, f.name]));
  const filtered = FILTERS.some((k) => k !== 'page' && filters[k]);

  return (
    <section aria-labelledby='sent-requests'>
      <h2 id='sent-requests'>Sent requests</h2>
      <form
        class='filters rr-filters'
        role='search'
        aria-label='Filter requests'
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ email: email.trim(), external_id: reference.trim(), page: null }, false);
        }}
      >
        <div class='field'>
          <label for='q-email'>E-mail address</label>
          <input
            id='q-email'
            type='search'
            maxLength={320}
            placeholder='name@example.com'
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <div class='field'>
          <label for='q-reference'>Your reference</label>
          <input
            id='q-reference'
            type='search'
            maxLength={200}
            value={reference}
            onInput={(e) => setReference(e.currentTarget.value)}
          />
        </div>
        <QuerySelect
          label='Status'
          name='status'
          value={filters.status}
          options={[['', 'Any'], ...Object.entries(STATUS_LABEL)]}
        />
        <QuerySelect
          label='Form'
          name='form_id'
          value={filters.form_id}
          options={[['', 'Any'], ...forms.map((f): [string, string] => [f.id, f.name])]}
        />
        <QueryDate label='Created from' name='startDate' value={filters.startDate} />
        <QueryDate label='Created until' name='endDate' value={filters.endDate} />
        <div class='filter-buttons'>
          <button type='submit' class='button'>Search</button>
          {filtered && (
            <button
              type='button'
              class='button'
              onClick={() => setQuery(Object.fromEntries(FILTERS.map((k) => [k, null])), false)}
            >
              Clear filters
            </button>
          )}
        </div>
      </form>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading requests' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          {filtered ? 'No request matches these filters.' : (
            <>
              No review requests yet. Send the first one above, or{' '}
              <a href={appPath('/requests/bulk')}>send many at once from a CSV file</a> of your recent orders.
            </>
          )}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <div class='table-wrap rr-table-wrap'>
            <table class='rr-table' aria-busy={list.loading}>
              <caption class='visually-hidden'>Review requests, newest first</caption>
              <thead>
                <tr>
                  <th scope='col'>Customer</th>
                  <th scope='col'>Order</th>
                  <th scope='col'>Form</th>
                  <th scope='col'>Status</th>
                  <th scope='col'>Created</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((r) => (
                  <tr key={r.id}>
                    <td class='rr-customer'>
                      <a href={appPath(`/requests/${r.id}`)}>{r.name}</a>
                      <span class='muted small rr-email'>{r.email}</span>
                    </td>
                    <td data-label='Order'>
                      {r.order_id ?? r.external_id ?? <span class='muted'>—</span>}
                    </td>
                    <td data-label='Form'>{formName.get(r.form_id) ?? <span class='muted'>A deleted form</span>}</td>
                    <td data-label='Status'>
                      <StatusBadge status={r.status} />
                      {r.status === 'queued' && Date.parse(r.send_at) > Date.now() + 60_000 && (
                        <span class='muted small rr-when'>for {formatDateTime(r.send_at)}</span>
                      )}
                    </td>
                    <td data-label='Created'>{formatDateTime(r.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// /requests/:id: one request and its timeline

function eventWords(e: RequestEvent): { title: string; detail?: string } {
  const d = e.data ?? {};
  switch (e.type) {
    case 'queued':
      return {
        title: 'Queued',
        detail: d.send_at && Date.parse(d.send_at) > Date.parse(e.occurred_at) + 60_000
          ? `To go out ${formatDateTime(d.send_at)}.`
          : undefined,
      };
    case 'sent':
      return { title: 'E-mail sent', detail: 'The mail server accepted it.' };
    case 'delivered':
      return { title: 'Delivered', detail: "The customer's mail server received it." };
    case 'opened':
      return { title: 'Opened', detail: 'Counted when the e-mail loads its images; some mail apps hide opens.' };
    case 'clicked':
      return { title: 'Link clicked', detail: 'The customer followed a link to your review form.' };
    case 'completed':
      return { title: 'Review written' };
    case 'bounced':
      return {
        title: 'Bounced',
        detail: d.bounce?.message ?? 'The address does not accept mail; it will not be asked again.',
      };
    case 'soft_bounced':
      return { title: 'Temporary delivery problem', detail: d.bounce?.message ?? undefined };
    case 'delivery_delayed':
      return { title: 'Delivery delayed', detail: 'The mail provider keeps trying.' };
    case 'complained':
      return { title: 'Marked as spam', detail: 'The address will not be asked again.' };
    case 'unsubscribed':
      return { title: 'Unsubscribed', detail: 'The customer asked for no more review requests.' };
    case 'failed':
      return d.reason === 'suppressed'
        ? {
          title: 'Not sent',
          detail: `The address is on your suppression list${
            d.suppression_reason
              ? ` (${SUPPRESSION_REASON[d.suppression_reason as Suppression['reason']] ?? d.suppression_reason})`
              : ''
          }.`,
        }
        : { title: 'Sending failed', detail: d.error };
    case 'reminder_queued':
      return { title: `Reminder ${d.reminder ?? ''} queued`.replace('  ', ' ') };
    case 'reminder_sent':
      return { title: `Reminder ${d.reminder ?? ''} sent`.replace('  ', ' ') };
    default:
      return { title: e.type };
  }
}

export function RequestPage({ params }: { params: Record<string, string> }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const path = orgPath(`/review-requests/${params.id}`);
  const item = useLoad((signal) => api.get<ReviewRequest>(path, undefined, signal), [path]);
  const forms = useForms();

  if (item.error) {
    return (
      <>
        <PageHeader title='Review request' />
        <RequestTabs />
        <ErrorNotice error={item.error} />
        <p>
          <a href={appPath('/requests')}>Back to the review requests</a>
        </p>
      </>
    );
  }
  if (!item.data) return <Loading what='Loading the request' />;
  const r = item.data;
  const form = forms.data?.data.find((f) => f.id === r.form_id);
  const when = (at: string | null, extra?: string) =>
    at ? `${formatDateTime(at)}${extra ? ` · ${extra}` : ''}` : <span class='muted'>Not yet</span>;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/requests')}>Review requests</a>
      </p>
      <header class='page-header'>
        <div class='rr-title'>
          <h1 tabIndex={-1}>Request to {r.name}</h1>
          <StatusBadge status={r.status} />
        </div>
      </header>
      <RequestTabs />
      <div class='review-grid'>
        <section class='card' aria-labelledby='rr-facts'>
          <h2 id='rr-facts'>Details</h2>
          <dl class='facts'>
            <dt>Customer</dt>
            <dd>
              {r.name} · <a href={`mailto:${r.email}`}>{r.email}</a>
            </dd>
            <dt>Review form</dt>
            <dd>{form ? <a href={appPath(`/forms/${form.id}`)}>{form.name}</a> : 'A deleted form'}</dd>
            <dt>Order reference</dt>
            <dd>{r.order_id ?? <span class='muted'>None</span>}</dd>
            <dt>Your reference</dt>
            <dd>{r.external_id ?? <span class='muted'>None</span>}</dd>
            <dt>Language</dt>
            <dd>
              {r.locale === 'de' || r.locale.startsWith('de-')
                ? 'German'
                : `English${r.locale === 'en' ? '' : ` (${r.locale})`}`}
            </dd>
            <dt>Created</dt>
            <dd>{formatDateTime(r.created_at)}</dd>
            {r.status === 'queued' && (
              <>
                <dt>Goes out</dt>
                <dd>{formatDateTime(r.send_at)}</dd>
              </>
            )}
            <dt>Sent</dt>
            <dd>{when(r.sent_at)}</dd>
            <dt>Delivered</dt>
            <dd>{when(r.delivered_at)}</dd>
            <dt>Opened</dt>
            <dd>{when(r.opened_at, r.open_count > 1 ? `${formatNumber(r.open_count)} times` : undefined)}</dd>
            <dt>Clicked</dt>
            <dd>{when(r.clicked_at, r.click_count > 1 ? `${formatNumber(r.click_count)} times` : undefined)}</dd>
            <dt>Reviewed</dt>
            <dd>
              {r.completed_at
                ? (
                  <>
                    {formatDateTime(r.completed_at)}
                    {r.review_id && (
                      <>
                        {' · '}
                        <a href={appPath(`/reviews/${r.review_id}`)}>Read the review</a>
                      </>
                    )}
                  </>
                )
                : <span class='muted'>Not yet</span>}
            </dd>
            <dt>Reminders sent</dt>
            <dd>{formatNumber(r.reminders_sent)}</dd>
          </dl>
        </section>
        <aside class='side'>
          <section class='card' aria-labelledby='rr-timeline'>
            <h2 id='rr-timeline'>Timeline</h2>
            {r.events.length === 0 && <p class='muted'>Nothing has happened yet.</p>}
            <ol class='trail rr-timeline'>
              {r.events.map((e, i) => {
                const w = eventWords(e);
                return (
                  <li key={i}>
                    <strong>{w.title}</strong> · {formatDateTime(e.occurred_at)}
                    {w.detail && <p class='trail-reason muted'>{w.detail}</p>}
                    {e.type === 'completed' && e.data.review_id && (
                      <p class='trail-reason'>
                        <a href={appPath(`/reviews/${e.data.review_id}`)}>Read the review</a>
                      </p>
                    )}
                  </li>
                );
              })}
            </ol>
            <button type='button' class='button' onClick={item.reload} disabled={item.loading}>
              {item.loading ? 'Refreshing…' : 'Refresh'}
            </button>
          </section>
          <SuppressAddress email={r.email} />
        </aside>
      </div>
    </>
  );
}

/** Whether the address may be asked again, and a way to stop asking it. */
function SuppressAddress({ email }: { email: string }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const listed = useLoad(
    (signal) => api.get<Page<Suppression>>(orgPath('/suppressions'), { email, limit: 1 }, signal),
    [orgPath(), email],
  );
  const add = useAction(async () => {
    await api.post(orgPath('/suppressions'), { email });
    listed.reload();
  });
  const entry = listed.data?.data[0];
  return (
    <section class='card' aria-labelledby='rr-suppress'>
      <h2 id='rr-suppress'>Future requests</h2>
      <ErrorNotice error={listed.error ?? add.error} />
      {listed.data && entry && (
        <p>
          {email} is on your suppression list ({SUPPRESSION_REASON[entry.reason].toLowerCase()}, since{' '}
          {formatDate(entry.created_at)}): it gets no review requests or reminders.{' '}
          <a href={appPath('/requests/settings')}>Manage the list</a>
        </p>
      )}
      {listed.data && !entry && (
        <>
          <p class='muted small'>
            {email} may be asked again by a later request. Stop it if the customer asked you not to write.
          </p>
          <Confirm
            label='Stop review requests to this address'
            question={
              <>
                Add {email}{' '}
                to the suppression list? Queued requests and reminders to it are withdrawn; you can lift it later in the
                settings.
              </>
            }
            confirm='Yes, stop requests'
            pending={add.pending}
            onConfirm={() => void add.run()}
          />
        </>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// /requests/settings: the daily limit, reminders, and the suppression list

export function RequestSettings(_: { params: Record<string, string> }) {
  return (
    <>
      <PageHeader title='Review request settings' />
      <RequestTabs />
      <div class='review-grid'>
        <SettingsCard />
        <SuppressionList />
      </div>
    </>
  );
}

function SettingsCard() {
  const orgPath = useOrgPath();
  const { isAdmin } = useWorkspace();
  const settings = useLoad(
    (signal) => api.get<Settings>(orgPath('/review-requests/settings'), undefined, signal),
    [orgPath()],
  );
  const [draft, setDraft] = useState<{ quota: string; enabled: boolean; delay: string; max: string }>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const s = settings.data;
    if (s) {
      setDraft({
        quota: String(s.daily_quota),
        enabled: s.reminders_enabled,
        delay: String(s.reminder_delay_days),
        max: String(s.reminder_max),
      });
    }
  }, [settings.data]);
  const save = useAction(async () => {
    const s = await api.patch<Settings>(orgPath('/review-requests/settings'), {
      daily_quota: Number(draft!.quota),
      reminders_enabled: draft!.enabled,
      reminder_delay_days: Number(draft!.delay),
      reminder_max: Number(draft!.max),
    });
    settings.set(s);
    setSaved(true);
  });
  const s = settings.data;
  const edit = (patch: Partial<NonNullable<typeof draft>>) => {
    setSaved(false);
    setDraft({ ...draft!, ...patch });
  };

  return (
    <section class='card' aria-labelledby='rr-limits'>
      <h2 id='rr-limits'>Daily limit and reminders</h2>
      <ErrorNotice error={settings.error} />
      {!s && !settings.error && <Loading what='Loading the settings' />}
      {s && (
        <p>
          <strong>{formatNumber(s.used_today)}</strong> of {formatNumber(s.daily_quota)} requests used today,{' '}
          {formatNumber(s.remaining_today)} left. The count starts again at midnight UTC.
        </p>
      )}
      {s && draft && !isAdmin && (
        <>
          <p>
            Reminders are {s.reminders_enabled
              ? `on: up to ${s.reminder_max} reminder${
                s.reminder_max > 1 ? 's' : ''
              }, ${s.reminder_delay_days} days apart, while no review came.`
              : 'off.'}
          </p>
          <p class='muted small'>Only the organization's owners and admins can change these settings.</p>
        </>
      )}
      {s && draft && isAdmin && (
        <form
          class='rr-settings'
          onSubmit={(e) => {
            e.preventDefault();
            void save.run();
          }}
        >
          {saved && <Notice tone='success'>The settings are saved.</Notice>}
          {save.error && save.error.errors.length === 0 && <ErrorNotice error={save.error} />}
          <NumberField
            label='Daily limit'
            name='daily_quota'
            error={save.error}
            hint='Requests your organization may send per day (1 to 100,000). A send beyond it is refused, never queued.'
            min={1}
            max={100000}
            required
            value={draft.quota}
            onValue={(v) => edit({ quota: v })}
          />
          <CheckboxField
            id='f-reminders_enabled'
            label='Send reminders to customers who have not written a review'
            checked={draft.enabled}
            onChecked={(on) => edit({ enabled: on })}
          />
          <NumberField
            label='Days before a reminder'
            name='reminder_delay_days'
            error={save.error}
            hint='Counted from the request, and from the previous reminder (1 to 60).'
            min={1}
            max={60}
            required
            disabled={!draft.enabled}
            value={draft.delay}
            onValue={(v) => edit({ delay: v })}
          />
          <SelectField
            label='Reminders per request'
            name='reminder_max'
            error={save.error}
            disabled={!draft.enabled}
            value={draft.max}
            onValue={(v) => edit({ max: v })}
            options={[['1', 'One reminder'], ['2', 'Two reminders']]}
          />
          <button type='submit' class='button primary' disabled={save.pending}>
            {save.pending ? 'Saving…' : 'Save settings'}
          </button>
        </form>
      )}
    </section>
  );
}

function SuppressionList() {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('');
  const [search, setSearch] = useState('');
  const list = useLoad(
    (signal) =>
      api.get<Page<Suppression>>(orgPath('/suppressions'), { email: filter || undefined, page, limit: 20 }, signal),
    [orgPath(), page, filter],
  );
  const [email, setEmail] = useState('');
  const [notice, setNotice] = useState('');
  const add = useAction(async () => {
    const s = await api.post<Suppression>(orgPath('/suppressions'), { email: email.trim() });
    setEmail('');
    setNotice(`${s.email} gets no more review requests.`);
    setPage(1);
    list.reload();
  });
  const lift = useAction(async (s: Suppression) => {
    await api.delete(orgPath(`/suppressions/${s.id}`));
    setNotice(`${s.email} may get review requests again.`);
    list.reload();
  });

  return (
    <section class='card' aria-labelledby='rr-suppressions'>
      <h2 id='rr-suppressions'>Suppression list</h2>
      <p class='muted small'>
        Addresses that never get review requests or reminders from you: customers who unsubscribed, addresses that
        bounced or marked a request as spam, and those you add here.
      </p>
      {notice && <Notice tone='success'>{notice}</Notice>}
      <form
        class='inline-form'
        onSubmit={(e) => {
          e.preventDefault();
          setNotice('');
          void add.run();
        }}
      >
        {add.error && <ErrorNotice error={add.error} />}
        <div class='field'>
          <label for='f-suppress-email'>Add an address</label>
          <input
            id='f-suppress-email'
            type='email'
            required
            maxLength={320}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <button type='submit' class='button' disabled={add.pending}>Add to the list</button>
      </form>
      <form
        class='inline-form'
        role='search'
        aria-label='Find an address on the suppression list'
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setFilter(search.trim());
        }}
      >
        <div class='field'>
          <label for='q-suppressed'>Find an address</label>
          <input id='q-suppressed' type='search' value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </div>
        <button type='submit' class='button'>Find</button>
      </form>
      <ErrorNotice error={list.error ?? lift.error} />
      {list.loading && !list.data && <Loading what='Loading the list' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>{filter ? `${filter} is not on the list.` : 'No address is suppressed.'}</Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='suppressions' aria-busy={list.loading}>
            {list.data.data.map((s) => (
              <li key={s.id}>
                <div class='suppression-head'>
                  <strong class='suppression-email'>{s.email}</strong>
                  <Badge tone={s.reason === 'manual' ? 'plain' : 'bad'}>{SUPPRESSION_REASON[s.reason]}</Badge>
                </div>
                <p class='muted small'>
                  Since {formatDate(s.created_at)}
                  {s.request_id && (
                    <>
                      {' · '}
                      <a href={appPath(`/requests/${s.request_id}`)}>The request</a>
                    </>
                  )}
                </p>
                <Confirm
                  label='Lift'
                  about={s.email}
                  question={<>Lift the suppression? {s.email} may get review requests again.</>}
                  confirm='Yes, lift it'
                  pending={lift.pending}
                  onConfirm={() => void lift.run(s)}
                />
              </li>
            ))}
          </ul>
          <Pager meta={list.data.meta} onPage={setPage} />
        </>
      )}
    </section>
  );
}
