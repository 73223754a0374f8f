// Releasing a review bombing hold (`POST …/holds/:id/release`): a member ends it, new reviews of its
// subject publish as before, and the reviews it held wait to be approved or rejected. On the Holds
// screen and on a held review's page.
import { api } from '../api.ts';
import { useOrgId } from '../session.ts';
import { ErrorNotice } from './components.tsx';
import { useAction } from './hooks.ts';

export function ReleaseHold({ holdId, onReleased }: { holdId: string; onReleased: () => void }) {
  const orgId = useOrgId();
  const act = useAction(async () => {
    await api.post('/organizations/{orgId}/holds/{id}/release', { params: { orgId, id: holdId } });
    onReleased();
  });
  return (
    <div class='actions'>
      <ErrorNotice error={act.error} />
      <button type='button' class='button primary' disabled={act.pending} onClick={() => void act.run()}>
        Release the hold
      </button>
    </div>
  );
}
