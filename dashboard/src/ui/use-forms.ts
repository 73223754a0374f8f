// The organization's review forms, which the screens that send requests offer or name.
import { api, type Schemas } from '../api.ts';
import { useOrgId } from '../session.ts';
import { useLoad } from './hooks.ts';

type ReviewForm = Schemas['ReviewForm'];

/** The organization's review forms (for choosing one and for naming them in lists). */
export function useForms() {
  const orgId = useOrgId();
  return useLoad(
    (signal) => api.get('/organizations/{orgId}/review-forms', { params: { orgId }, query: { limit: 100 }, signal }),
    [orgId],
  );
}
