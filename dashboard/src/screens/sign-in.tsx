// Signing in without a password: the address, then the mail's link (which lands here with
// #token=…) or its 6-digit code. The answer never says whether an address is a member's.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type BodyOf, type Session } from '../api.ts';
import { Notice } from '../ui/components.tsx';
import { TextField } from '../ui/fields.tsx';
import { useAction } from '../ui/hooks.ts';

type Step = { kind: 'email' } | { kind: 'code'; email: string } | { kind: 'link' };

export function SignIn({ onSignedIn, signUp }: { onSignedIn: (s: Session) => void; signUp: boolean }) {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  const [step, setStep] = useState<Step>(token ? { kind: 'link' } : { kind: 'email' });
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  const verify = useAction(async (body: BodyOf<'/auth/verify', 'post'>) => {
    const session = await api.post('/auth/verify', { body });
    // The token has done its work: it leaves the address bar and the history.
    history.replaceState(null, '', '/app');
    onSignedIn(session);
  });
  const ask = useAction(async (address: string) => {
    await api.post('/auth/sign-in', { body: { email: address } });
    setStep({ kind: 'code', email: address });
  });

  useEffect(() => {
    if (token) void verify.run({ token });
  }, []);
  useEffect(() => heading.current?.focus(), [step.kind]);

  return (
    <main class='sign-in' id='main'>
      <div class='sign-in-card'>
        <p class='brand' aria-hidden='true'>Plaudit</p>
        {step.kind === 'link' && (
          <>
            <h1 ref={heading} tabIndex={-1}>Signing you in</h1>
            {verify.error
              ? (
                <>
                  <Notice tone='error'>{verify.error.message}</Notice>
                  <button type='button' class='button primary' onClick={() => setStep({ kind: 'email' })}>
                    Send a new link
                  </button>
                </>
              )
              : <p role='status'>Checking your link…</p>}
          </>
        )}
        {step.kind === 'email' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void ask.run(email.trim());
            }}
          >
            <h1 ref={heading} tabIndex={-1}>Sign in to your reviews</h1>
            <p class='muted'>We e-mail you a link and a code. No password to remember.</p>
            {ask.error && ask.error.errors.length === 0 && <Notice tone='error'>{ask.error.message}</Notice>}
            <TextField
              label='Work e-mail address'
              name='email'
              error={ask.error}
              type='email'
              autoComplete='email'
              required
              value={email}
              onValue={setEmail}
            />
            <button type='submit' class='button primary wide' disabled={ask.pending}>
              {ask.pending ? 'Sending…' : 'E-mail me a sign-in link'}
            </button>
            {signUp && (
              <p class='muted small'>
                New here? <a href='/app/sign-up'>Create an organization</a>
              </p>
            )}
          </form>
        )}
        {step.kind === 'code' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void verify.run({ email: step.email, code: code.trim() });
            }}
          >
            <h1 ref={heading} tabIndex={-1}>Check your e-mail</h1>
            <p>
              If <strong>{step.email}</strong>{' '}
              belongs to a team here, a sign-in mail is on its way. Open its link on this device, or type its code.
            </p>
            {verify.error && <Notice tone='error'>{verify.error.message}</Notice>}
            <TextField
              label='6-digit code'
              name='code'
              hint='The link and the code work once, for 15 minutes.'
              inputMode='numeric'
              autoComplete='one-time-code'
              pattern='\d{6}'
              maxLength={6}
              required
              value={code}
              onValue={setCode}
            />
            <button type='submit' class='button primary wide' disabled={verify.pending}>
              {verify.pending ? 'Signing in…' : 'Sign in'}
            </button>
            <p class='muted small'>
              Wrong address?{' '}
              <button type='button' class='link' onClick={() => setStep({ kind: 'email' })}>Use another one</button>
            </p>
          </form>
        )}
      </div>
    </main>
  );
}
