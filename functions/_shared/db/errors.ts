import { ApiError } from '../http/errors.ts';

/**
 * What the review SQL functions raise, and the answer each becomes. The database decides; the
 * API only translates. Messages raised by Plaudit's own functions name the field already
 * (`custom_fields.size: is required`); a table CHECK constraint is named after its column.
 */
const STATUS_BY_SQLSTATE: Record<string, 404 | 409 | 422> = {
  P0002: 404, // no_data_found: the thing does not exist (for this tenant)
  '55000': 409, // object_not_in_prerequisite_state: a state conflict
  '23505': 409, // unique_violation: already exists
  '23514': 422, // check_violation: a field fails validation
  '22023': 422, // invalid_parameter_value: a field fails validation
  '22001': 422, // string_data_right_truncation
};

interface PgError {
  code?: string;
  message?: string;
  constraint_name?: string;
  table_name?: string;
}

/** The field a CHECK constraint guards: `reviews_content_check` on reviews → `content`. */
export function fieldOfConstraint(constraint: string, table?: string): string {
  let name = constraint.replace(/_check\d*$/, '');
  if (table && name.startsWith(`${table}_`)) name = name.slice(table.length + 1);
  return name;
}

/** An ApiError for an expected database refusal, or undefined for anything else. */
export function apiErrorFromDb(err: unknown): ApiError | undefined {
  const e = err as PgError;
  if (!e || typeof e.code !== 'string') return undefined;
  const status = STATUS_BY_SQLSTATE[e.code];
  if (!status) return undefined;
  if (e.code === '23514' && e.constraint_name) {
    return new ApiError(422, `${fieldOfConstraint(e.constraint_name, e.table_name)}: is invalid`);
  }
  return new ApiError(status, e.message ?? 'Request refused');
}

/** Runs a query and turns the database's expected refusals into API errors. */
export async function translateDbErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw apiErrorFromDb(err) ?? err;
  }
}
