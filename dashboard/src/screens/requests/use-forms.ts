// The organization's review forms, which every screen of the section offers or names.
import { api, type Page, type Schemas } from '../../api.ts';
import { useOrgPath } from '../../session.ts';
import { useLoad } from '../../ui/hooks.ts';

type ReviewForm = Schemas['ReviewForm'];

/** The organization's review forms (for choosing one and for naming them in lists). */
export function useForms() {
  const orgPath = useOrgPath();
  return useLoad(
    (signal) => api.get<Page<ReviewForm>>(orgPath('/review-forms'), { limit: 100 }, signal),
    [orgPath()],
  );
}
