// The organization's settings (its name and website; its public address, which is fixed) and the
// signed-in person's account: when this session ends, and signing out on every device.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api.ts';
import { useOrgId, useWorkspace } from '../session.ts';
import { CopyField, ErrorNotice, Field, Loading, Notice, PageHeader } from '../ui/components.tsx';
import { ConfirmStep } from '../ui/confirm.tsx';
import { formatDate, formatDateTime } from '../ui/format.ts';
import { useAction, useLoad } from '../ui/hooks.ts';

type Organization = Schemas['Organization'];

export function Settings(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const org = useLoad((signal) => api.get('/organizations/{orgId}', { params: { orgId }, signal }), [orgId]);

  return (
    <>
      <PageHeader title='Settings' />
      <ErrorNotice error={org.error} />
      {org.loading && !org.data && <Loading what='Loading the settings' />}
      {org.data && (
        <>
          <OrganizationCard org={org.data} onSaved={org.set} />
          <PublicAddress org={org.data} />
        </>
      )}
      <Account />
    </>
  );
}

function OrganizationCard({ org, onSaved }: { org: Organization; onSaved: (o: Organization) => void }) {
  const w = useWorkspace();
  const orgId = useOrgId();
  const [name, setName] = useState(org.name);
  const [website, setWebsite] = useState(org.website ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    const updated = await api.patch('/organizations/{orgId}', {
      params: { orgId },
      body: { name: name.trim(), website: website.trim() || null },
    });
    onSaved(updated);
    setName(updated.name);
    setWebsite(updated.website ?? '');
    setSaved(true);
    // The name is also in the top bar and the organization switcher: they read the session.
    await w.refresh();
  });
  const general = save.error && !save.error.field('name') && !save.error.field('website') ? save.error : undefined;
  const unchanged = name.trim() === org.name && (website.trim() || null) === org.website;

  if (!w.isAdmin) {
    return (
      <section class='card' aria-labelledby='org-heading'>
        <h2 id='org-heading'>Organization</h2>
        <dl class='facts'>
          <dt>Name</dt>
          <dd>{org.name}</dd>
          <dt>Website</dt>
          <dd>{org.website ? <a href={org.website} rel='noopener noreferrer'>{org.website}</a> : '—'}</dd>
          <dt>On Plaudit since</dt>
          <dd>{formatDate(org.created_at)}</dd>
        </dl>
        <p class='muted small'>Owners and admins change the organization's name and website.</p>
      </section>
    );
  }

  return (
    <section class='card' aria-labelledby='org-heading'>
      <h2 id='org-heading'>Organization</h2>
      <form
        class='settings-form'
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void save.run();
        }}
      >
        {saved && !save.error && <Notice tone='success'>Saved. Your team sees the new details at once.</Notice>}
        {general && <ErrorNotice error={general} />}
        <Field
          label='Name'
          name='name'
          error={save.error}
          hint='Your team sees it here and in invitations. Customers see it on your public page, forms and review-request e-mails unless a display name is set under Widget and public page.'
        >
          {(p) => (
            <input
              {...p}
              required
              maxLength={200}
              autoComplete='organization'
              value={name}
              onInput={(e) => {
                setName(e.currentTarget.value);
                setSaved(false);
              }}
            />
          )}
        </Field>
        <Field
          label='Website (optional)'
          name='website'
          error={save.error}
          hint='The full address, starting with https://. Leave empty for none.'
        >
          {(p) => (
            <input
              {...p}
              type='url'
              inputMode='url'
              maxLength={2048}
              placeholder='https://www.example.com'
              autoComplete='url'
              value={website}
              onInput={(e) => {
                setWebsite(e.currentTarget.value);
                setSaved(false);
              }}
            />
          )}
        </Field>
        <button type='submit' class='button primary' disabled={save.pending || unchanged}>
          {save.pending ? 'Saving…' : 'Save changes'}
        </button>
      </form>
    </section>
  );
}

function PublicAddress({ org }: { org: Organization }) {
  const page = `${location.origin}/p/${org.slug}`;
  return (
    <section class='card' aria-labelledby='address-heading'>
      <h2 id='address-heading'>Public address</h2>
      <p class='muted small'>
        Your organization's slug is{' '}
        <code>{org.slug}</code>. It is part of your public review page's address and of the widget's snippet, so it
        stays fixed: links you have shared keep working.
      </p>
      <CopyField label='Public review page' value={page} />
      <p class='small'>
        <a href={page} target='_blank' rel='noopener'>Open your public page (new tab)</a>{' '}
        <span class='muted'>· What it shows is set under Widget and public page.</span>
      </p>
    </section>
  );
}

function Account() {
  const w = useWorkspace();
  const [confirming, setConfirming] = useState(false);
  const confirmBox = useRef<HTMLDivElement>(null);
  const signOut = useAction(() => w.signOut(true));
  useEffect(() => {
    if (confirming) confirmBox.current?.focus();
  }, [confirming]);
  const s = w.session;

  return (
    <section class='card' aria-labelledby='account-heading'>
      <h2 id='account-heading'>Your account</h2>
      <dl class='facts'>
        <dt>Signed in as</dt>
        <dd>{s.name ? `${s.name} (${s.email})` : s.email}</dd>
        <dt>Your role here</dt>
        <dd>{w.org.role.charAt(0).toUpperCase() + w.org.role.slice(1)} of {w.org.name}</dd>
        <dt>This session ends</dt>
        <dd>
          {formatDateTime(s.expires_at)} at the latest, or on {formatDateTime(s.idle_expires_at)}{' '}
          if you do not use the dashboard before then (7 days without use).
        </dd>
      </dl>
      <h3>Sign out everywhere</h3>
      <p class='muted small'>
        Ends every session of{' '}
        {s.email}, on every browser and device, this one included. Use it after signing in on a shared computer or
        losing a device. You can sign in again with your e-mail address.
      </p>
      <ErrorNotice error={signOut.error} />
      {!confirming && (
        <button type='button' class='button danger' onClick={() => setConfirming(true)}>
          Sign out everywhere…
        </button>
      )}
      {confirming && (
        <ConfirmStep
          class='account-confirm'
          boxRef={confirmBox}
          question={
            <>
              <strong>Sign out on every device?</strong> You will need a new sign-in e-mail on each of them.
            </>
          }
          yes={signOut.pending ? 'Signing out…' : 'Yes, sign out everywhere'}
          pending={signOut.pending}
          onYes={() => void signOut.run()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </section>
  );
}
