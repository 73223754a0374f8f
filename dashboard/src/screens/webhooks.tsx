// Webhooks: the endpoints that receive the organization's events, a new endpoint with its signing
// secret shown once, and one endpoint's page: its settings, a test event, the secret's rotation,
// turning it off, deleting it, and the delivery log with each delivery's attempts and redelivery.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Page, type Schemas } from '../api.ts';
import { navigate, setQuery, useLocation } from '../router.ts';
import { useAppPath, useOrgPath } from '../session.ts';
import { Badge, CopyField, Empty, ErrorNotice, Field, Loading, Notice, PageHeader, Pager } from '../ui/components.tsx';
import { ConfirmStep } from '../ui/confirm.tsx';
import { TextField } from '../ui/fields.tsx';
import { formatDateTime, formatNumber } from '../ui/format.ts';
import { useAction, useLoad, usePolling } from '../ui/hooks.ts';

type Webhook = Schemas['Webhook'];
type NewWebhook = Schemas['NewWebhook'];
type Delivery = Schemas['WebhookDelivery'];
type DeliveryDetail = Schemas['WebhookDeliveryDetail'];
type Attempt = Schemas['WebhookAttempt'];
type RotatedSecret = Schemas['RotatedWebhookSecret'];
type EventName = Schemas['WebhookInput']['events'][number];

const EVENTS: { value: Exclude<EventName, '*'>; label: string }[] = [
  { value: 'review.created', label: 'A review is written' },
  { value: 'review.verified', label: "A review's verification changes (verified, approved or rejected)" },
  { value: 'review.moderated', label: 'A review is hidden or shown again' },
  { value: 'review.replied', label: 'Your public reply is published, edited or withdrawn' },
  { value: 'export.completed', label: 'An export is ready to download' },
];

const DELIVERY_STATUS: Record<Delivery['status'], { label: string; tone: string }> = {
  pending: { label: 'Queued', tone: 'warn' },
  succeeded: { label: 'Delivered', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
  cancelled: { label: 'Cancelled', tone: 'plain' },
};

function DeliveryBadge({ status }: { status: Delivery['status'] }) {
  return <Badge tone={DELIVERY_STATUS[status].tone}>{DELIVERY_STATUS[status].label}</Badge>;
}

const eventsText = (events: string[]) => (events.includes('*') ? 'All events' : events.join(', '));

const disabledWhy = (reason: string | null) =>
  !reason || reason === 'disabled through the API' ? 'turned off by your team' : reason;

/** The endpoint's state in words, with a badge that does not rely on colour alone. */
function Health({ hook }: { hook: Webhook }) {
  if (!hook.enabled) return <Badge tone='bad'>Off</Badge>;
  if (hook.failing_since) return <Badge tone='bad'>Failing</Badge>;
  if (hook.slow_since) return <Badge tone='warn'>Slow</Badge>;
  return <Badge tone='good'>On</Badge>;
}

// ---------------------------------------------------------------------------------------------
// The list

export function Webhooks(_: { params: Record<string, string> }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const { query } = useLocation();
  const page = Number(query.get('page')) || 1;
  const list = useLoad(
    (signal) => api.get<Page<Webhook>>(orgPath('/webhooks'), { page, limit: 20 }, signal),
    [orgPath(), page],
  );
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<NewWebhook>();
  const deleted = query.get('deleted') === '1';

  return (
    <>
      <PageHeader title='Webhooks'>
        {!adding && !created && (
          <button type='button' class='button primary' onClick={() => setAdding(true)}>Add an endpoint</button>
        )}
      </PageHeader>
      <p class='muted lede'>
        Plaudit tells your systems when something happens, such as a new review, by sending a signed HTTPS POST to your
        endpoint. Failed deliveries are retried for about 3 days.
      </p>
      {deleted && <Notice tone='success'>The endpoint is deleted. It receives nothing more.</Notice>}
      {created && (
        <OnceSecret
          title='Endpoint added'
          label='Signing secret'
          secret={created.secret}
          done={() => setCreated(undefined)}
        >
          <p class='small'>
            Check each delivery's <code>x-webhook-signature</code>{' '}
            (hex HMAC-SHA256 of the body, keyed with this secret) before trusting it. Next,{' '}
            <a href={appPath(`/developers/webhooks/${created.id}`)}>open the endpoint and send a test event</a>.
          </p>
        </OnceSecret>
      )}
      {adding && (
        <CreateWebhook
          onCancel={() => setAdding(false)}
          onCreated={(w) => {
            setAdding(false);
            setCreated(w);
            if (deleted) setQuery({ deleted: null });
            list.reload();
          }}
        />
      )}

      <h2 class='section-title'>Endpoints</h2>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading the endpoints' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          No endpoint yet. Add one to have new reviews, moderation and exports pushed to your shop, CRM or chat as they
          happen.
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='dev-list' aria-busy={list.loading}>
            {list.data.data.map((w) => (
              <li key={w.id} class='dev-row'>
                <div class='dev-row-main'>
                  <p class='dev-row-head'>
                    <a class='url' href={appPath(`/developers/webhooks/${w.id}`)}>{w.url}</a>
                    <Health hook={w} />
                  </p>
                  {w.description && <p class='dev-desc'>{w.description}</p>}
                  <p class='dev-meta'>
                    <span>Events: {eventsText(w.events)}</span>
                    <LastDelivery hook={w} />
                  </p>
                  {!w.enabled && (
                    <p class='dev-meta'>Off since {formatDateTime(w.disabled_at)}: {disabledWhy(w.disabled_reason)}.</p>
                  )}
                </div>
              </li>
            ))}
          </ul>
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </>
  );
}

/** The endpoint's newest delivery, read from its log. */
function LastDelivery({ hook }: { hook: Webhook }) {
  const orgPath = useOrgPath();
  const last = useLoad(
    (signal) =>
      api.get<Page<Delivery>>(orgPath(`/webhooks/${hook.id}/deliveries`), { limit: 1 }, signal).catch(() => null),
    [hook.id, hook.updated_at],
  );
  const d = last.data?.data[0];
  if (last.loading || last.data === null) return null;
  if (!d) return <span>No delivery yet</span>;
  return (
    <span>
      Last delivery: <DeliveryBadge status={d.status} /> {d.event}, {formatDateTime(d.created_at)}
      {d.last_status_code ? ` (HTTP ${d.last_status_code})` : ''}
    </span>
  );
}

/** A secret shown once: a warning, the copy field, and "Done", which removes it for good. */
function OnceSecret({ title, label, secret, done, children }: {
  title: string;
  label: string;
  secret: string;
  done: () => void;
  children?: ComponentChildren;
}) {
  useEffect(() => {
    document.getElementById('once-secret')?.focus();
  }, [secret]);
  return (
    <section class='card secret-card' id='once-secret' tabIndex={-1} aria-labelledby='once-secret-title'>
      <h2 id='once-secret-title'>{title}</h2>
      <p class='secret-warning'>
        <strong>Copy the signing secret now.</strong>{' '}
        It is shown only this once. If you lose it, rotate it on the endpoint's page.
      </p>
      <CopyField label={label} value={secret} />
      {children}
      <button type='button' class='button primary' onClick={done}>Done, I have stored it</button>
    </section>
  );
}

function EventsPicker({ value, onChange, error }: {
  value: string[];
  onChange: (events: string[]) => void;
  error?: string;
}) {
  const all = value.includes('*');
  const toggle = (event: string, on: boolean) =>
    onChange(on ? [...value.filter((e) => e !== event), event] : value.filter((e) => e !== event));
  return (
    <fieldset class='check-list' aria-describedby={error ? 'events-error' : undefined}>
      <legend>Events to send</legend>
      <label class='all'>
        <input type='checkbox' checked={all} onChange={(e) => onChange(e.currentTarget.checked ? ['*'] : [])} />
        <span>
          <strong>All events</strong>
          <span class='hint'>Including kinds added to Plaudit later</span>
        </span>
      </label>
      {EVENTS.map((ev) => (
        <label key={ev.value}>
          <input
            type='checkbox'
            checked={all || value.includes(ev.value)}
            disabled={all}
            onChange={(e) => toggle(ev.value, e.currentTarget.checked)}
          />
          <span>
            <code>{ev.value}</code>
            <span class='hint'>{ev.label}</span>
          </span>
        </label>
      ))}
      {error && <p class='field-error' id='events-error'>{error}</p>}
    </fieldset>
  );
}

/** The API's message for the events, whichever item it names (`events` or `events.2`). */
const eventsError = (e: { errors: { field: string; message: string }[] } | undefined) =>
  e?.errors.find((x) => x.field === 'events' || x.field.startsWith('events.'))?.message;

function CreateWebhook({ onCreated, onCancel }: { onCreated: (w: NewWebhook) => void; onCancel: () => void }) {
  const orgPath = useOrgPath();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['review.created']);
  const create = useAction(async () => {
    const w = await api.post<NewWebhook>(orgPath('/webhooks'), {
      url: url.trim(),
      events,
      description: description.trim() || undefined,
    });
    onCreated(w);
  });
  const err = create.error;
  return (
    <form
      class='card'
      aria-labelledby='add-endpoint-title'
      onSubmit={(e) => {
        e.preventDefault();
        void create.run();
      }}
    >
      <h2 id='add-endpoint-title'>Add an endpoint</h2>
      {err && !err.field('url') && !err.field('description') && !eventsError(err) && <ErrorNotice error={err} />}
      <TextField
        label='Endpoint URL'
        name='url'
        error={err}
        hint='Where Plaudit sends events: an https address on the public internet.'
        type='url'
        required
        maxLength={2048}
        placeholder='https://shop.example/hooks/plaudit'
        value={url}
        onValue={setUrl}
      />
      <TextField
        label='Description (optional)'
        name='description'
        error={err}
        hint='For your team: what receives it.'
        maxLength={500}
        value={description}
        onValue={setDescription}
      />
      <EventsPicker value={events} onChange={setEvents} error={eventsError(err)} />
      <div class='actions'>
        <button type='submit' class='button primary' disabled={create.pending || events.length === 0}>
          {create.pending ? 'Adding…' : 'Add endpoint'}
        </button>
        <button type='button' class='button' onClick={onCancel}>Cancel</button>
      </div>
      {events.length === 0 && <p class='hint'>Choose at least one event.</p>}
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// One endpoint

export function WebhookPage({ params }: { params: Record<string, string> }) {
  const orgPath = useOrgPath();
  const appPath = useAppPath();
  const path = orgPath(`/webhooks/${params.id}`);
  const hook = useLoad((signal) => api.get<Webhook>(path, undefined, signal), [path]);
  const { query } = useLocation();
  const deliveryId = query.get('delivery');
  const [logTick, setLogTick] = useState(0);

  if (hook.error) {
    return (
      <>
        <h1 tabIndex={-1}>Webhook endpoint</h1>
        <ErrorNotice error={hook.error} />
        <p>
          <a href={appPath('/developers/webhooks')}>Back to the webhooks</a>
        </p>
      </>
    );
  }
  if (!hook.data) return <Loading what='Loading the endpoint' />;
  const w = hook.data;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/developers/webhooks')}>Webhooks</a>
      </p>
      <header class='page-header'>
        <h1 tabIndex={-1} class='url-title'>{w.url}</h1>
      </header>
      <p class='dev-row-head hook-summary'>
        <Health hook={w} />
        <span class='muted'>{w.description || 'No description'}</span>
      </p>
      {!w.enabled && (
        <Notice tone='error'>
          This endpoint is off since {formatDateTime(w.disabled_at)}:{' '}
          {disabledWhy(w.disabled_reason)}. It receives nothing until you turn it on again.
        </Notice>
      )}
      {w.enabled && w.failing_since && (
        <Notice tone='error'>
          Every delivery has failed since{' '}
          {formatDateTime(w.failing_since)}. Until one succeeds, deliveries go one at a time; after 5 days of failures
          the endpoint is turned off. The log below shows what your endpoint answered.
        </Notice>
      )}
      {w.enabled && !w.failing_since && w.slow_since && (
        <Notice>
          Your endpoint has been slow to answer since{' '}
          {formatDateTime(w.slow_since)}. Answer quickly (under 5 seconds) and do the work afterwards.
        </Notice>
      )}
      <div class='hook-grid'>
        <div class='hook-log'>
          {deliveryId
            ? <DeliveryPanel hookPath={path} hook={w} id={deliveryId} onChange={() => setLogTick((t) => t + 1)} />
            : <DeliveryLog hookPath={path} tick={logTick} />}
        </div>
        <div class='hook-side'>
          <SendTest hookPath={path} enabled={w.enabled} onSent={() => setLogTick((t) => t + 1)} />
          <Secret hookPath={path} hook={w} onRotated={hook.reload} />
          <OnOff hookPath={path} hook={w} onChange={hook.set} />
        </div>
        <div class='hook-settings'>
          <Settings hookPath={path} hook={w} onSaved={hook.set} />
        </div>
      </div>
    </>
  );
}

function SendTest({ hookPath, enabled, onSent }: { hookPath: string; enabled: boolean; onSent: () => void }) {
  const [event, setEvent] = useState('webhook.test');
  const [result, setResult] = useState<Delivery>();
  const send = useAction(async () => {
    setResult(undefined);
    const d = await api.post<Delivery>(`${hookPath}/test`, event === 'webhook.test' ? {} : { event });
    setResult(d);
    onSent();
  });
  const last = result?.attempt_log.at(-1);
  return (
    <section class='card' aria-labelledby='test-title'>
      <h2 id='test-title'>Send a test event</h2>
      <p class='muted small'>Sent once, now, signed like a real one. It is not retried.</p>
      <ErrorNotice error={send.error} />
      {result && (
        <Notice tone={result.status === 'succeeded' ? 'success' : 'error'}>
          {result.status === 'succeeded'
            ? `Delivered: your endpoint answered ${result.last_status_code}${last ? ` in ${last.duration_ms} ms` : ''}.`
            : `Not delivered: ${
              result.last_status_code ? `your endpoint answered ${result.last_status_code}` : result.last_error
            }.`}
        </Notice>
      )}
      <Field label='Event' name='test-event'>
        {(p) => (
          <select {...p} value={event} onChange={(e) => setEvent(e.currentTarget.value)}>
            <option value='webhook.test'>webhook.test (a ping)</option>
            {EVENTS.map((ev) => <option key={ev.value} value={ev.value}>{ev.value} (a sample)</option>)}
          </select>
        )}
      </Field>
      <button type='button' class='button primary' disabled={send.pending || !enabled} onClick={() => void send.run()}>
        {send.pending ? 'Sending…' : 'Send test event'}
      </button>
      {!enabled && <p class='hint'>Turn the endpoint on to send a test.</p>}
    </section>
  );
}

function Settings({ hookPath, hook, onSaved }: { hookPath: string; hook: Webhook; onSaved: (w: Webhook) => void }) {
  const [url, setUrl] = useState(hook.url);
  const [description, setDescription] = useState(hook.description ?? '');
  const [events, setEvents] = useState<string[]>(hook.events);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    const w = await api.patch<Webhook>(hookPath, { url: url.trim(), events, description: description.trim() || null });
    onSaved(w);
    setSaved(true);
  });
  const err = save.error;
  return (
    <form
      class='card'
      aria-labelledby='settings-title'
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
      onInput={() => setSaved(false)}
    >
      <h2 id='settings-title'>Settings</h2>
      {saved && <Notice tone='success'>Saved.</Notice>}
      {err && !err.field('url') && !err.field('description') && !eventsError(err) && <ErrorNotice error={err} />}
      <TextField
        label='Endpoint URL'
        name='url'
        error={err}
        type='url'
        required
        maxLength={2048}
        value={url}
        onValue={setUrl}
      />
      <TextField
        label='Description (optional)'
        name='description'
        error={err}
        maxLength={500}
        value={description}
        onValue={setDescription}
      />
      <EventsPicker
        value={events}
        onChange={(e) => {
          setSaved(false);
          setEvents(e);
        }}
        error={eventsError(err)}
      />
      <button type='submit' class='button primary' disabled={save.pending || events.length === 0}>
        {save.pending ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}

function Secret({ hookPath, hook, onRotated }: { hookPath: string; hook: Webhook; onRotated: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<RotatedSecret>();
  const rotate = useAction(async () => {
    const s = await api.post<RotatedSecret>(`${hookPath}/rotate-secret`);
    setConfirming(false);
    setSecret(s);
  });
  if (secret) {
    return (
      <OnceSecret
        title='Secret rotated'
        label='New signing secret'
        secret={secret.secret}
        done={() => {
          setSecret(undefined);
          onRotated();
        }}
      >
        <p class='small'>
          Until {formatDateTime(secret.previous_secret_expires_at)}{' '}
          deliveries are signed with both the old and the new secret, so you can update your endpoint first.
        </p>
      </OnceSecret>
    );
  }
  const overlap = hook.previous_secret_expires_at && Date.parse(hook.previous_secret_expires_at) > Date.now();
  return (
    <section class='card' aria-labelledby='secret-title'>
      <h2 id='secret-title'>Signing secret</h2>
      <p class='muted small'>
        {hook.secret_rotated_at
          ? `Last rotated ${formatDateTime(hook.secret_rotated_at)}.`
          : `In use since ${formatDateTime(hook.created_at)}.`}
        {overlap && ` The previous secret also signs until ${formatDateTime(hook.previous_secret_expires_at)}.`}{' '}
        Rotate it if it may have leaked.
      </p>
      <ErrorNotice error={rotate.error} />
      {!confirming
        ? <button type='button' class='button' onClick={() => setConfirming(true)}>Rotate secret</button>
        : (
          <ConfirmStep
            class='dev-confirm calm'
            label='Rotate the signing secret'
            question={
              <>
                <strong>Rotate the signing secret?</strong>{' '}
                The new one is shown once. For 24 hours deliveries carry signatures of both secrets.
              </>
            }
            yes='Yes, rotate'
            tone='primary'
            pending={rotate.pending}
            onYes={() => void rotate.run()}
            onCancel={() => setConfirming(false)}
          />
        )}
    </section>
  );
}

function OnOff({ hookPath, hook, onChange }: { hookPath: string; hook: Webhook; onChange: (w: Webhook) => void }) {
  const appPath = useAppPath();
  const [step, setStep] = useState<'off' | 'delete' | null>(null);
  const toggle = useAction(async (enabled: boolean) => {
    const w = await api.patch<Webhook>(hookPath, { enabled });
    setStep(null);
    onChange(w);
  });
  const remove = useAction(async () => {
    await api.delete(hookPath);
    navigate(appPath('/developers/webhooks?deleted=1'));
  });
  return (
    <section class='card' aria-labelledby='onoff-title'>
      <h2 id='onoff-title'>Turn off or delete</h2>
      <ErrorNotice error={toggle.error ?? remove.error} />
      {hook.enabled
        ? (
          step === 'off'
            ? (
              <ConfirmStep
                class='dev-confirm'
                label='Turn the endpoint off'
                question={
                  <>
                    <strong>Turn this endpoint off?</strong>{' '}
                    Deliveries waiting for a retry are cancelled; new events are not sent until you turn it on again.
                  </>
                }
                yes='Yes, turn off'
                pending={toggle.pending}
                onYes={() => void toggle.run(false)}
                onCancel={() => setStep(null)}
              />
            )
            : (
              <p>
                <button type='button' class='button' onClick={() => setStep('off')}>Turn off</button>
              </p>
            )
        )
        : (
          <p>
            <button
              type='button'
              class='button primary'
              disabled={toggle.pending}
              onClick={() => void toggle.run(true)}
            >
              Turn on
            </button>{' '}
            <span class='muted small'>New events are sent again; missed ones can be redelivered from the log.</span>
          </p>
        )}
      {step === 'delete'
        ? (
          <ConfirmStep
            class='dev-confirm'
            label='Delete the endpoint'
            question={
              <>
                <strong>Delete this endpoint?</strong>{' '}
                Deliveries stop at once and its delivery log is deleted with it. This cannot be undone.
              </>
            }
            yes='Yes, delete endpoint'
            pending={remove.pending}
            onYes={() => void remove.run()}
            onCancel={() => setStep(null)}
          />
        )
        : <button type='button' class='button danger' onClick={() => setStep('delete')}>Delete endpoint</button>}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// The delivery log

function responseText(d: Delivery): string {
  if (d.last_status_code) return `HTTP ${d.last_status_code}`;
  if (d.last_error) return d.last_error;
  return d.status === 'pending' ? 'Not sent yet' : '—';
}

/** This page's address with some query values changed. */
function withQuery(values: Record<string, string>): string {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(values)) q.set(k, v);
  return `${location.pathname}?${q}`;
}

function DeliveryLog({ hookPath, tick }: { hookPath: string; tick: number }) {
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const page = Number(query.get('page')) || 1;
  const log = useLoad(
    (signal) =>
      api.get<Page<Delivery>>(`${hookPath}/deliveries`, { status: status || undefined, page, limit: 20 }, signal),
    [hookPath, status, page, tick],
  );
  const pending = !!log.data?.data.some((d) => d.status === 'pending');
  usePolling(pending, log.reload, tick);
  const rows = log.data?.data ?? [];

  return (
    <section class='card' aria-labelledby='log-title'>
      <div class='section-head'>
        <h2 id='log-title'>Delivery log</h2>
        <div class='field inline-field'>
          <label for='f-delivery-status'>Show</label>
          <select
            id='f-delivery-status'
            value={status}
            onChange={(e) => setQuery({ status: e.currentTarget.value, page: null })}
          >
            <option value=''>All deliveries</option>
            <option value='pending'>Queued</option>
            <option value='succeeded'>Delivered</option>
            <option value='failed'>Failed</option>
            <option value='cancelled'>Cancelled</option>
          </select>
        </div>
      </div>
      <p class='muted small'>The last 30 days, newest first.</p>
      <ErrorNotice error={log.error} />
      {log.loading && !log.data && <Loading what='Loading the deliveries' />}
      {log.data && rows.length === 0 && (
        <Empty>
          {status
            ? 'No delivery in this state.'
            : 'Nothing sent yet. Send a test event to see how your endpoint answers.'}
        </Empty>
      )}
      {rows.length > 0 && (
        <>
          <div class='table-wrap stack-table' aria-busy={log.loading}>
            <table>
              <caption class='visually-hidden'>Deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope='col'>Event</th>
                  <th scope='col'>Status</th>
                  <th scope='col'>Response</th>
                  <th scope='col'>Attempts</th>
                  <th scope='col'>Time</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((d) => (
                  <tr key={d.id}>
                    <td data-label='Event'>
                      <a href={withQuery({ delivery: d.id })}>
                        <code>{d.event}</code>
                        <span class='visually-hidden'>, {formatDateTime(d.created_at)}</span>
                      </a>
                      {d.is_test && <Badge tone='plain'>test</Badge>}
                    </td>
                    <td data-label='Status'>
                      <DeliveryBadge status={d.status} />
                    </td>
                    <td data-label='Response' class='wrap'>{responseText(d)}</td>
                    <td data-label='Attempts'>{formatNumber(d.attempts)}</td>
                    <td data-label='Time'>{formatDateTime(d.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager meta={log.data!.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </section>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function DeliveryPanel({ hookPath, hook, id, onChange }: {
  hookPath: string;
  hook: Webhook;
  id: string;
  onChange: () => void;
}) {
  const path = `${hookPath}/deliveries/${id}`;
  const detail = useLoad((signal) => api.get<DeliveryDetail>(path, undefined, signal), [path]);
  const [queued, setQueued] = useState(0);
  const d = detail.data;
  usePolling(d?.status === 'pending', detail.reload, queued);
  useEffect(() => {
    document.getElementById('delivery-title')?.focus();
  }, [id]);
  const redeliver = useAction(async () => {
    const again = await api.post<Delivery>(`${path}/redeliver`);
    if (d) detail.set({ ...d, ...again });
    setQueued((n) => n + 1);
    onChange();
  });
  const back = (
    <button type='button' class='link' onClick={() => setQuery({ delivery: null }, false)}>
      Back to all deliveries
    </button>
  );

  return (
    <section class='card' aria-labelledby='delivery-title'>
      <p class='small'>{back}</p>
      <h2 id='delivery-title' tabIndex={-1}>
        Delivery {d ? <code>{d.event}</code> : ''}
      </h2>
      <ErrorNotice error={detail.error} />
      {!d && !detail.error && <Loading what='Loading the delivery' />}
      {d && (
        <>
          {queued > 0 && d.status === 'pending' && (
            <Notice>
              Queued again: it is sent in a moment with the same webhook-id, so your endpoint can spot a repeat.
            </Notice>
          )}
          {queued > 0 && d.status !== 'pending' && (
            <Notice tone={d.status === 'succeeded' ? 'success' : 'error'}>
              Redelivered: {d.status === 'succeeded' ? 'delivered' : 'failed again'} ({responseText(d)}).
            </Notice>
          )}
          <dl class='facts'>
            <dt>Status</dt>
            <dd>
              <DeliveryBadge status={d.status} /> {d.is_test && <Badge tone='plain'>test</Badge>}
            </dd>
            <dt>Created</dt>
            <dd>{formatDateTime(d.created_at)}</dd>
            {d.delivered_at && (
              <>
                <dt>Delivered</dt>
                <dd>{formatDateTime(d.delivered_at)}</dd>
              </>
            )}
            {d.next_attempt_at && d.status === 'pending' && (
              <>
                <dt>Next attempt</dt>
                <dd>{formatDateTime(d.next_attempt_at)}</dd>
              </>
            )}
            <dt>Attempts</dt>
            <dd>{formatNumber(d.attempts)}</dd>
            <dt>webhook-id</dt>
            <dd>
              <code>{d.message_id}</code>
            </dd>
          </dl>
          <ErrorNotice error={redeliver.error} />
          <div class='actions'>
            <button
              type='button'
              class='button primary'
              disabled={redeliver.pending || d.status === 'pending' || !hook.enabled}
              onClick={() => void redeliver.run()}
            >
              {redeliver.pending ? 'Queuing…' : 'Redeliver'}
            </button>
          </div>
          <p class='hint'>
            {!hook.enabled
              ? 'Turn the endpoint on to redeliver.'
              : d.status === 'pending'
              ? 'It is queued; you can redeliver it once this attempt is over.'
              : 'Sends the same body again, now, and restarts its retries.'}
          </p>

          <h3>Attempts</h3>
          {d.attempt_log.length === 0 && <p class='muted'>No attempt yet.</p>}
          <ol class='attempts'>
            {d.attempt_log.map((a) => <AttemptItem key={`${a.attempt}-${a.created_at}`} a={a} />)}
          </ol>

          <h3>Request body</h3>
          <pre class='code-block' tabIndex={0} aria-label='Request body'>{prettyJson(d.payload)}</pre>
        </>
      )}
    </section>
  );
}

function AttemptItem({ a }: { a: Attempt }) {
  const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
  return (
    <li>
      <p class='dev-row-head'>
        <strong>Attempt {a.attempt}</strong>
        <Badge tone={ok ? 'good' : 'bad'}>{ok ? 'Succeeded' : 'Failed'}</Badge>
        <span class='muted small'>
          {formatDateTime(a.created_at)} · {formatNumber(a.duration_ms)} ms
        </span>
      </p>
      <p class='small'>
        {a.status_code !== null ? `Answered HTTP ${a.status_code}` : 'No answer'}
        {a.error ? `: ${a.error}` : ''}
      </p>
      {a.response_snippet && (
        <pre
          class='code-block snippet'
          tabIndex={0}
          aria-label={`Response to attempt ${a.attempt}`}
        >{a.response_snippet}</pre>
      )}
    </li>
  );
}
