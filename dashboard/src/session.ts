// Who is signed in, and in which organization they are working: the context every screen reads.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Membership, Session } from './api.ts';

export interface Workspace {
  session: Session;
  /** The organization of the URL, with this person's role in it. */
  org: Membership;
  /** Owners and admins act with the admin scope: keys, webhooks, team, settings. */
  isAdmin: boolean;
  /** Reloads the session (after a role or name change). */
  refresh: () => Promise<void>;
  signOut: (everywhere?: boolean) => Promise<void>;
}

export const WorkspaceContext = createContext<Workspace | null>(null);

export function useWorkspace(): Workspace {
  const w = useContext(WorkspaceContext);
  if (!w) throw new Error('useWorkspace outside an organization');
  return w;
}

/** The current organization's id: the `{orgId}` of the API's paths. */
export function useOrgId(): string {
  return useWorkspace().org.id;
}

/** The dashboard path of the current organization: `/app/o/<id>` + rest. */
export function useAppPath(): (rest?: string) => string {
  const { org } = useWorkspace();
  return (rest = '') => `/app/o/${org.id}${rest}`;
}
