// An endpoint's address, description and events: one form to add an endpoint and to change one.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useOrgId } from '../../session.ts';
import { ErrorNotice, Notice } from '../../ui/components.tsx';
import { TextField } from '../../ui/fields.tsx';
import { useAction } from '../../ui/hooks.ts';
import { type EventName, EVENTS, eventsError } from './words.ts';

type Webhook = Schemas['Webhook'];
type NewWebhook = Schemas['NewWebhook'];

/** The events to send: all of them (kinds added later included), or some. */
function EventsPicker({ value, onChange, error }: {
  value: EventName[];
  onChange: (events: EventName[]) => void;
  error?: string;
}) {
  const all = value.includes('*');
  const toggle = (event: EventName, on: boolean) =>
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

type Props =
  /** A new endpoint: its answer carries the signing secret, shown once. */
  | { hook?: undefined; onCreated: (w: NewWebhook) => void; onCancel: () => void }
  /** An endpoint's settings, changed in place. */
  | { hook: Webhook; onSaved: (w: Webhook) => void };

/** Adds an endpoint (no `hook`) or changes the given one: the same fields, checks and messages. */
export function EndpointForm(props: Props) {
  const { hook } = props;
  const orgId = useOrgId();
  const [url, setUrl] = useState(hook?.url ?? '');
  const [description, setDescription] = useState(hook?.description ?? '');
  // The API answers an endpoint's events as strings: the ones it took when they were set.
  const [events, setEvents] = useState<EventName[]>((hook?.events as EventName[] | undefined) ?? ['review.created']);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    if (!props.hook) {
      const w = await api.post('/organizations/{orgId}/webhooks', {
        params: { orgId },
        body: {
          url: url.trim(),
          events,
          description: description.trim() || undefined,
        },
      });
      props.onCreated(w);
      return;
    }
    // An emptied description is removed (null); a new endpoint simply has none.
    const w = await api.patch('/organizations/{orgId}/webhooks/{id}', {
      params: { orgId, id: props.hook.id },
      body: {
        url: url.trim(),
        events,
        description: description.trim() || null,
      },
    });
    props.onSaved(w);
    setSaved(true);
  });
  const err = save.error;
  const titleId = hook ? 'settings-title' : 'add-endpoint-title';
  const submit = (
    <button type='submit' class='button primary' disabled={save.pending || events.length === 0}>
      {hook ? (save.pending ? 'Saving…' : 'Save changes') : save.pending ? 'Adding…' : 'Add endpoint'}
    </button>
  );
  return (
    <form
      class='card'
      aria-labelledby={titleId}
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
      onInput={() => setSaved(false)}
    >
      <h2 id={titleId}>{hook ? 'Settings' : 'Add an endpoint'}</h2>
      {saved && <Notice tone='success'>Saved.</Notice>}
      {err && !err.field('url') && !err.field('description') && !eventsError(err) && <ErrorNotice error={err} />}
      <TextField
        label='Endpoint URL'
        name='url'
        error={err}
        hint={hook ? undefined : 'Where Plaudit sends events: an https address on the public internet.'}
        type='url'
        required
        maxLength={2048}
        placeholder={hook ? undefined : 'https://shop.example/hooks/plaudit'}
        value={url}
        onValue={setUrl}
      />
      <TextField
        label='Description (optional)'
        name='description'
        error={err}
        hint={hook ? undefined : 'For your team: what receives it.'}
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
      {props.hook ? submit : (
        <>
          <div class='actions'>
            {submit}
            <button type='button' class='button' onClick={props.onCancel}>Cancel</button>
          </div>
          {events.length === 0 && <p class='hint'>Choose at least one event.</p>}
        </>
      )}
    </form>
  );
}
