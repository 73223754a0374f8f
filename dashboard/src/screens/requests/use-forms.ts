// The organization's review forms, which every screen of the section offers or names.
import { api, type Schemas } from '../../api.ts';
import { useOrgId } from '../../session.ts';
import { useLoad } from '../../ui/hooks.ts';

type ReviewForm = Schemas['ReviewForm'];

/** The organization's review forms (for choosing one and for naming them in lists). */
export function useForms() {
  const orgId = useOrgId();
  return useLoad(
    (signal) => api.get('/organizations/{orgId}/review-forms', { params: { orgId }, query: { limit: 100 }, signal }),
    [orgId],
  );
}
