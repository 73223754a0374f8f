// Privacy requests (admins): a reviewer asks what the shop holds about their address, or asks to
// be forgotten. The report downloads as JSON (what the law asks to hand over); the erasure asks
// once more, says what it keeps and removes, and shows what it removed.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api.ts';
import { useOrgId } from '../session.ts';
import { ErrorNotice, Notice, PageHeader } from '../ui/components.tsx';
import { ConfirmStep } from '../ui/confirm.tsx';
import { downloadText } from '../ui/download.ts';
import { CheckboxField, TextField } from '../ui/fields.tsx';
import { formatNumber } from '../ui/format.ts';
import { useAction } from '../ui/hooks.ts';

type Erasure = Schemas['Erasure'];

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

export function Privacy(_: { params: Record<string, string> }) {
  return (
    <>
      <PageHeader title='Privacy requests' />
      <p class='muted lede'>
        When a reviewer asks what you hold about them, or asks to be forgotten, answer here with their e-mail address.
        Both act on this organization only.
      </p>
      <AccessReport />
      <EraseAddress />
    </>
  );
}

function AccessReport() {
  const orgId = useOrgId();
  const [email, setEmail] = useState('');
  const [done, setDone] = useState<string>();
  const report = useAction(async () => {
    const data = await api.get('/organizations/{orgId}/privacy/data', { params: { orgId }, query: { email } });
    downloadText(`data-${data.email}.json`, JSON.stringify(data, null, 2), 'application/json');
    setDone(
      `Downloaded: ${plural(data.reviews.length, 'review', 'reviews')}, ${
        plural(data.review_requests.length, 'review request', 'review requests')
      }, ${plural(data.orders.length, 'order', 'orders')}.`,
    );
  });
  return (
    <section class='card' aria-labelledby='access-title'>
      <h2 id='access-title' class='section-title'>What you hold about an address</h2>
      <p class='muted'>
        A file with their reviews, review requests, orders, e-mails and whether they get no e-mail from you: send it to
        them. It holds nothing about anyone else.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setDone(undefined);
          void report.run();
        }}
      >
        <TextField
          label='E-mail address'
          name='access-email'
          type='email'
          required
          maxLength={320}
          autocomplete='off'
          value={email}
          onValue={setEmail}
          error={report.error}
        />
        <button class='button' type='submit' disabled={report.pending}>
          {report.pending ? 'Preparing…' : 'Download the report'}
        </button>
      </form>
      {done && <Notice tone='success'>{done}</Notice>}
    </section>
  );
}

function EraseAddress() {
  const orgId = useOrgId();
  const [email, setEmail] = useState('');
  const [redact, setRedact] = useState(false);
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<{ email: string; erased: Erasure }>();
  const erase = useAction(async () => {
    const erased = await api.post('/organizations/{orgId}/privacy/erasures', {
      params: { orgId },
      body: { email, redact_content: redact },
    });
    setResult({ email, erased });
    setAsking(false);
    setEmail('');
    setRedact(false);
  });
  return (
    <section class='card' aria-labelledby='erase-title'>
      <h2 id='erase-title' class='section-title'>Forget an address</h2>
      <p class='muted'>
        Their reviews stay with their rating and date, shown as written by “Anonymous”; their address, name and answers
        are removed, and so are their review requests and e-mails. They will get no e-mail from you again: the address
        is kept only as a fingerprint that cannot be read back. This cannot be undone.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setResult(undefined);
          setAsking(true);
        }}
      >
        <TextField
          label='E-mail address'
          name='erase-email'
          type='email'
          required
          maxLength={320}
          autocomplete='off'
          value={email}
          onValue={(v) => {
            setEmail(v);
            setAsking(false);
          }}
          error={erase.error}
        />
        <CheckboxField
          id='erase-redact'
          label='Also remove the title and text of their reviews'
          checked={redact}
          onChecked={setRedact}
        />
        {!asking && <button class='button danger' type='submit'>Forget this address…</button>}
      </form>
      {asking && (
        <ConfirmStep
          class='confirm-box'
          label='Confirm the erasure'
          question={
            <>
              Forget <strong>{email}</strong>
              {redact ? ' and remove the text of their reviews' : ''}? This cannot be undone.
            </>
          }
          yes='Yes, forget it'
          pending={erase.pending}
          error={erase.error}
          onYes={() => void erase.run()}
          onCancel={() => setAsking(false)}
        />
      )}
      <ErrorNotice error={asking ? undefined : erase.error} />
      {result && (
        <Notice tone='success'>
          {result.email} is forgotten: {plural(result.erased.reviews, 'review', 'reviews')} anonymized,{' '}
          {plural(result.erased.review_requests, 'review request', 'review requests')} and{' '}
          {plural(result.erased.media, 'photo or video', 'photos and videos')} removed.
        </Notice>
      )}
    </section>
  );
}
