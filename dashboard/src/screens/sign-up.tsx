// Self-service sign-up (only when the operator opened it: PLAUDIT_SIGN_UP=open): a new
// organization, its owner, and the same sign-in mail as everyone else.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Field, Notice } from '../ui/components.tsx';
import { TextField } from '../ui/fields.tsx';
import { useAction } from '../ui/hooks.ts';

export function SignUp() {
  const [form, setForm] = useState({ organization_name: '', slug: '', email: '', name: '' });
  const [sent, setSent] = useState(false);
  const [slugTouched, setSlugTouched] = useState(false);
  const submit = useAction(async () => {
    await api.post('/auth/sign-up', { body: { ...form, name: form.name || undefined } });
    setSent(true);
  });
  const set = (k: keyof typeof form, v: string) => {
    const next = { ...form, [k]: v };
    if (k === 'organization_name' && !slugTouched) {
      next.slug = v.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63);
    }
    setForm(next);
  };
  return (
    <main class='sign-in' id='main'>
      <div class='sign-in-card'>
        <p class='brand' aria-hidden='true'>Plaudit</p>
        {sent
          ? (
            <>
              <h1 tabIndex={-1}>Check your e-mail</h1>
              <p>We sent a sign-in link to {form.email}. Open it to start collecting reviews.</p>
            </>
          )
          : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void submit.run();
              }}
            >
              <h1 tabIndex={-1}>Create your organization</h1>
              {submit.error && submit.error.errors.length === 0 && <Notice tone='error'>{submit.error.message}</Notice>}
              <TextField
                label='Business name'
                name='organization_name'
                error={submit.error}
                required
                value={form.organization_name}
                onValue={(v) => set('organization_name', v)}
              />
              <Field
                label='Address of your public page'
                name='slug'
                error={submit.error}
                hint={`/p/${form.slug || 'your-business'}`}
              >
                {(p) => (
                  <input
                    {...p}
                    required
                    value={form.slug}
                    onInput={(e) => {
                      setSlugTouched(true);
                      set('slug', e.currentTarget.value);
                    }}
                  />
                )}
              </Field>
              <TextField
                label='Your e-mail address'
                name='email'
                error={submit.error}
                type='email'
                autoComplete='email'
                required
                value={form.email}
                onValue={(v) => set('email', v)}
              />
              <TextField
                label='Your name (optional)'
                name='name'
                error={submit.error}
                autoComplete='name'
                value={form.name}
                onValue={(v) => set('name', v)}
              />
              <button type='submit' class='button primary wide' disabled={submit.pending}>
                Create and e-mail me a link
              </button>
              <p class='muted small'>
                <a href='/app'>I already have an account</a>
              </p>
            </form>
          )}
      </div>
    </main>
  );
}
