// The API's refusals of one request, said next to the field they are about.
import { ApiError } from '../../api.ts';

/** A refusal that names its field (`external_id: …`, `form_id: …`), said next to that field in the page's words. */
export function fieldOfConflict(e: unknown): unknown {
  if (!(e instanceof ApiError) || (e.status !== 409 && e.status !== 404)) return e;
  if (e.message.startsWith('external_id:')) {
    const message = 'A request with this reference exists already, so this one is not sent: nobody is asked twice.';
    return new ApiError(e.status, message, [{ field: 'external_id', code: 'conflict', message }]);
  }
  if (e.message.startsWith('form_id:')) {
    const message = 'This form is not active any more: choose another one.';
    return new ApiError(e.status, message, [{ field: 'form_id', code: 'not_found', message }]);
  }
  return e;
}
