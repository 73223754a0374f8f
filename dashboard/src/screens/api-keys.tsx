// The organization's API keys: the keys that work (rotated ones in their grace period too), a new
// key with its access level, rotation with a grace period for the old key, and revocation. A key
// is shown whole exactly once, right after it is made; the API keeps only its prefix to show.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api.ts';
import { useOrgId } from '../session.ts';
import { Badge, CopyField, Empty, ErrorNotice, Field, Loading, Notice, PageHeader, Pager } from '../ui/components.tsx';
import { ConfirmStep } from '../ui/confirm.tsx';
import { NumberField } from '../ui/fields.tsx';
import { formatDateTime } from '../ui/format.ts';
import { useAction, useLoad } from '../ui/hooks.ts';

type ApiKey = Schemas['ApiKey'];
type NewApiKey = Schemas['NewApiKey'];
type RotatedApiKey = Schemas['RotatedApiKey'];
type Scope = ApiKey['scope'];

const SCOPES: { value: Scope; label: string; hint: string }[] = [
  {
    value: 'read',
    label: 'Read',
    hint: 'Reads reviews, forms, review requests, webhooks and exports. Changes nothing.',
  },
  {
    value: 'write',
    label: 'Write',
    hint: 'Also moderates and replies to reviews, sends review requests, and manages forms, webhooks and exports.',
  },
  {
    value: 'admin',
    label: 'Admin',
    hint: "Everything, including API keys, the team and the organization's settings. Keep it on a server.",
  },
];

const SCOPE_LABEL: Record<Scope, string> = { read: 'Read', write: 'Write', admin: 'Admin' };

const GRACE: { seconds: number; label: string }[] = [
  { seconds: 0, label: 'At once' },
  { seconds: 3600, label: 'In 1 hour' },
  { seconds: 86400, label: 'In 24 hours' },
];

/** A key that was just made or rotated: shown until the person says they stored it. */
interface Secret {
  key: NewApiKey;
  rotated?: { name: string; until: string; now: boolean };
}

export function ApiKeys(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const [page, setPage] = useState(1);
  const list = useLoad(
    (signal) => api.get('/organizations/{orgId}/api-keys', { params: { orgId }, query: { page, limit: 20 }, signal }),
    [orgId, page],
  );
  const [secret, setSecret] = useState<Secret>();
  const [notice, setNotice] = useState('');
  const [creating, setCreating] = useState(false);

  const show = (s: Secret) => {
    setNotice('');
    setSecret(s);
    setCreating(false);
    list.reload();
    // The new key is what matters now: bring it into view for keyboard and screen-reader users.
    requestAnimationFrame(() => document.getElementById('new-key')?.focus());
  };

  return (
    <>
      <PageHeader title='API keys'>
        {!creating && !secret && (
          <button type='button' class='button primary' onClick={() => setCreating(true)}>Create a key</button>
        )}
      </PageHeader>
      <p class='muted lede'>
        Keys let your own systems, such as your shop's backend or a script, use the Plaudit API for this organization.
        Send a key in the <code>Authorization: Bearer</code> header.
      </p>
      {notice && <Notice tone='success'>{notice}</Notice>}
      {secret && (
        <SecretPanel
          secret={secret}
          onDone={() => {
            setSecret(undefined);
            setNotice(`“${secret.key.name}” is ready to use.`);
          }}
        />
      )}
      {creating && <CreateKey onCreated={(key) => show({ key })} onCancel={() => setCreating(false)} />}

      <h2 class='section-title'>Keys that work</h2>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading the keys' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          No key yet. Create one for each system that uses the API, so that you can revoke one without stopping the
          others.
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='dev-list' aria-busy={list.loading}>
            {list.data.data.map((k) => (
              <KeyRow
                key={k.id}
                apiKey={k}
                onRotated={(r, grace) =>
                  show({ key: r, rotated: { name: k.name, until: r.previous_key_expires_at, now: grace === 0 } })}
                onRevoked={() => {
                  setSecret(undefined);
                  setNotice(`“${k.name}” (${k.prefix}…) is revoked: it no longer works.`);
                  list.reload();
                }}
              />
            ))}
          </ul>
          <Pager meta={list.data.meta} onPage={setPage} />
        </>
      )}
    </>
  );
}

function SecretPanel({ secret, onDone }: { secret: Secret; onDone: () => void }) {
  const { key, rotated } = secret;
  return (
    <section class='card secret-card' id='new-key' tabIndex={-1} aria-labelledby='new-key-title'>
      <h2 id='new-key-title'>{rotated ? `New key for “${key.name}”` : `Your new key “${key.name}”`}</h2>
      <p class='secret-warning'>
        <strong>Copy this key now.</strong>{' '}
        It is shown only this once: Plaudit keeps only its first characters, so nobody can show it to you again. If you
        lose it, rotate or revoke the key and make a new one.
      </p>
      <CopyField label={`API key (${SCOPE_LABEL[key.scope]})`} value={key.key} />
      {rotated && (
        <p class='small'>
          {rotated.now
            ? `The old key of “${rotated.name}” stopped working.`
            : `The old key of “${rotated.name}” keeps working until ${
              formatDateTime(rotated.until)
            }: move every system to the new key before then.`}
        </p>
      )}
      <details class='small'>
        <summary>Try it</summary>
        <pre class='code-block'>{`curl ${location.origin}/api/v1/me \\\n  -H "Authorization: Bearer ${key.key}"`}</pre>
      </details>
      <button type='button' class='button primary' onClick={onDone}>Done, I have stored it</button>
    </section>
  );
}

function CreateKey({ onCreated, onCancel }: { onCreated: (k: NewApiKey) => void; onCancel: () => void }) {
  const orgId = useOrgId();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('read');
  const [limit, setLimit] = useState('');
  const create = useAction(async () => {
    const key = await api.post('/organizations/{orgId}/api-keys', {
      params: { orgId },
      body: {
        name: name.trim(),
        scope,
        rate_limit_per_minute: limit.trim() ? Number(limit) : undefined,
      },
    });
    onCreated(key);
  });
  const general = create.error && !['name', 'scope', 'rate_limit_per_minute'].some((f) => create.error!.field(f));
  return (
    <form
      class='card'
      aria-labelledby='create-key-title'
      onSubmit={(e) => {
        e.preventDefault();
        void create.run();
      }}
    >
      <h2 id='create-key-title'>Create a key</h2>
      {general && <ErrorNotice error={create.error} />}
      <Field
        label='Name'
        name='name'
        error={create.error}
        hint='What uses it, so that you know which key to rotate or revoke later: “Shop backend”, “Nightly report”.'
      >
        {(p) => <input {...p} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <fieldset class='choices' aria-describedby={create.error?.field('scope') ? 'scope-error' : undefined}>
        <legend>Access</legend>
        {SCOPES.map((s) => (
          <label key={s.value} class='choice'>
            <input
              type='radio'
              name='scope'
              value={s.value}
              checked={scope === s.value}
              onChange={() => setScope(s.value)}
            />
            <span>
              <strong>{s.label}</strong>
              <span class='hint'>{s.hint}</span>
            </span>
          </label>
        ))}
        {create.error?.field('scope') && <p class='field-error' id='scope-error'>{create.error.field('scope')}</p>}
      </fieldset>
      <NumberField
        label='Requests per minute (optional)'
        name='rate_limit_per_minute'
        error={create.error}
        hint="Leave empty for the service's default limit."
        min={1}
        max={100000}
        step={1}
        value={limit}
        onValue={setLimit}
      />
      <p class='hint'>A key works until you rotate or revoke it.</p>
      <div class='actions'>
        <button type='submit' class='button primary' disabled={create.pending}>
          {create.pending ? 'Creating…' : 'Create key'}
        </button>
        <button type='button' class='button' onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

function KeyRow({ apiKey: k, onRotated, onRevoked }: {
  apiKey: ApiKey;
  onRotated: (r: RotatedApiKey, grace: number) => void;
  onRevoked: () => void;
}) {
  const orgId = useOrgId();
  const [step, setStep] = useState<'rotate' | 'revoke' | null>(null);
  const [grace, setGrace] = useState(3600);
  const rotate = useAction(async () => {
    const r = await api.post('/organizations/{orgId}/api-keys/{id}/rotate', {
      params: { orgId, id: k.id },
      body: { expires_in_seconds: grace },
    });
    setStep(null);
    onRotated(r, grace);
  });
  const revoke = useAction(async () => {
    await api.delete('/organizations/{orgId}/api-keys/{id}', { params: { orgId, id: k.id } });
    onRevoked();
  });
  const titleId = `key-${k.id}`;
  return (
    <li class='dev-row' aria-labelledby={titleId}>
      <div class='dev-row-main'>
        <p class='dev-row-head'>
          <strong id={titleId}>{k.name}</strong>
          <Badge tone='plain'>{SCOPE_LABEL[k.scope]}</Badge>
          {k.expires_at && <Badge tone='warn'>Rotated</Badge>}
        </p>
        <p class='dev-meta'>
          <span>
            <span class='visually-hidden'>Key starts with</span>
            <code>{k.prefix}…</code>
          </span>
          <span>Created {formatDateTime(k.created_at)}</span>
          <span>{k.last_used_at ? `Last used ${formatDateTime(k.last_used_at)}` : 'Never used'}</span>
          {k.expires_at && <span class='warn-text'>Stops working {formatDateTime(k.expires_at)}</span>}
          {k.rate_limit_per_minute && <span>{k.rate_limit_per_minute} requests a minute</span>}
        </p>
      </div>
      {!step && (
        <div class='actions dev-row-actions'>
          {!k.expires_at && (
            <button type='button' class='button' onClick={() => setStep('rotate')}>
              Rotate<span class='visually-hidden'>{` “${k.name}”`}</span>
            </button>
          )}
          <button type='button' class='button danger' onClick={() => setStep('revoke')}>
            Revoke<span class='visually-hidden'>{` “${k.name}”`}</span>
          </button>
        </div>
      )}
      {step === 'rotate' && (
        <form
          class='dev-confirm calm'
          onSubmit={(e) => {
            e.preventDefault();
            void rotate.run();
          }}
        >
          <ErrorNotice error={rotate.error} />
          <fieldset class='choices'>
            <legend>Rotate “{k.name}”: when should the old key stop working?</legend>
            <p class='hint'>
              A new key with the same name and access replaces it. A grace period lets you move every system to the new
              key before the old one stops.
            </p>
            <div class='choice-row'>
              {GRACE.map((g) => (
                <label key={g.seconds} class='choice'>
                  <input
                    type='radio'
                    name={`grace-${k.id}`}
                    checked={grace === g.seconds}
                    onChange={() => setGrace(g.seconds)}
                  />
                  <span>{g.label}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div class='actions'>
            <button type='submit' class='button primary' disabled={rotate.pending}>Rotate key</button>
            <button type='button' class='button' onClick={() => setStep(null)}>Cancel</button>
          </div>
        </form>
      )}
      {step === 'revoke' && (
        <ConfirmStep
          class='dev-confirm'
          label={`Revoke “${k.name}”`}
          error={revoke.error}
          question={
            <>
              <strong>Revoke “{k.name}”?</strong> Every request made with it is refused from now on{k.expires_at
                ? ', even before its grace period ends'
                : ''}. This cannot be undone.
            </>
          }
          yes='Yes, revoke key'
          pending={revoke.pending}
          onYes={() => void revoke.run()}
          onCancel={() => setStep(null)}
        />
      )}
    </li>
  );
}
