// The dashboard: who is signed in (GET /auth/session on every load), the sign-in page when
// nobody is, and the organization's screens inside the layout when someone is.
import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, forgetPrefetched, type Session, setCsrfToken, whenSignedOut } from './api.ts';
import { Layout } from './layout.tsx';
import { match, navigate, useLocation } from './router.ts';
import { SCREENS } from './routes.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { SignUp } from './screens/sign-up.tsx';
import { type Workspace, WorkspaceContext } from './session.ts';
import { Loading, Notice } from './ui/components.tsx';
import { ScreenView } from './ui/screen.tsx';

type State = { kind: 'loading' } | { kind: 'signed-out'; signUp: boolean } | { kind: 'in'; session: Session } | {
  kind: 'failed';
  message: string;
};

/** Who is signed in: the app's first question, asked by the entry before anything renders. */
export async function loadSession(): Promise<State> {
  try {
    const session = await api.get('/auth/session');
    setCsrfToken(session.csrf_token);
    return { kind: 'in', session };
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      forgetPrefetched();
      const options = await api.get('/auth/options').catch(() => ({ sign_up: false }));
      return { kind: 'signed-out', signUp: options.sign_up };
    }
    return { kind: 'failed', message: (e as Error).message };
  }
}

/** `first`: the session's answer, already asked for (effects run only after the first paint). */
export function App({ first }: { first?: Promise<State> }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const { path } = useLocation();
  const reload = async () => setState(await loadSession());

  // Before the first paint: an answer already here shows without waiting a frame.
  useLayoutEffect(() => {
    whenSignedOut(() => void reload());
    void (first ?? loadSession()).then(setState);
  }, []);

  if (state.kind === 'loading') {
    return (
      <main id='main' class='centered'>
        <Loading />
      </main>
    );
  }
  if (state.kind === 'failed') {
    return (
      <main id='main' class='centered'>
        <Notice tone='error'>{state.message}</Notice>
      </main>
    );
  }
  if (state.kind === 'signed-out') {
    if (path === '/app/sign-up' && state.signUp) return <SignUp />;
    return (
      <SignIn
        signUp={state.signUp}
        onSignedIn={(session) => {
          setCsrfToken(session.csrf_token);
          setState({ kind: 'in', session });
        }}
      />
    );
  }
  return <SignedIn session={state.session} reload={reload} />;
}

function SignedIn({ session, reload }: { session: Session; reload: () => Promise<void> }) {
  const { path } = useLocation();
  const orgMatch = /^\/app\/o\/([^/]+)(\/.*)?$/.exec(path);
  const org = orgMatch ? session.organizations.find((o) => o.id === orgMatch[1]) : undefined;
  const rest = orgMatch?.[2] ?? '';

  // /app, /app/sign-in (after the link) and an organization this person left go to their first one.
  useEffect(() => {
    if (org && rest) return;
    if (org) navigate(`/app/o/${org.id}/reviews`, true);
    else if (session.organizations.length > 0) navigate(`/app/o/${session.organizations[0].id}/reviews`, true);
  }, [org, rest, session]);

  const workspace = useMemo<Workspace | null>(() =>
    org
      ? {
        session,
        org,
        isAdmin: org.scope === 'admin',
        refresh: reload,
        signOut: async (everywhere = false) => {
          await api.post(everywhere ? '/auth/sign-out-everywhere' : '/auth/sign-out');
          navigate('/app', true);
          await reload();
        },
      }
      : null, [session, org]);

  if (session.organizations.length === 0) {
    return (
      <main id='main' class='centered'>
        <h1>No organization yet</h1>
        <p>{session.email} is not a member of any organization. Ask an owner to invite you.</p>
      </main>
    );
  }
  if (!workspace) {
    return (
      <main id='main' class='centered'>
        <Loading />
      </main>
    );
  }

  const screen = SCREENS.map((s) => ({ s, params: match(s.path, rest || '/') })).find((m) => m.params);
  return (
    <WorkspaceContext.Provider value={workspace}>
      <Layout title={screen?.s.title ?? 'Not found'}>
        {!screen && <NotFound />}
        {screen && screen.s.adminOnly && !workspace.isAdmin && (
          <>
            <h1 tabIndex={-1}>{screen.s.title}</h1>
            <Notice tone='error'>
              This page is for the organization's owners and admins; your role is {workspace.org.role}.
            </Notice>
          </>
        )}
        {screen && (!screen.s.adminOnly || workspace.isAdmin) && (
          <ScreenView screen={screen.s} params={screen.params!} />
        )}
      </Layout>
    </WorkspaceContext.Provider>
  );
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        <a href='/app'>Back to the reviews</a>
      </p>
    </>
  );
}
