import { ApiError } from './errors.ts';

/**
 * What the database refuses, and the answer each refusal becomes: the one place that says so, for
 * the API's routes and the hosted pages alike. The database decides; the API only translates.
 * Messages raised by Plaudit's own functions name the field already, in the house style
 * (`custom_fields.size: is required`, which core/errors.ts reads); a table's CHECK constraint is
 * named after its column (`reviews_content_check`), and its refusal becomes `content: is invalid`
 * here, whether it was raised or answered in a function's row (plaudit.submit_review's).
 */
const STATUS_BY_SQLSTATE: Record<string, 400 | 404 | 409 | 422> = {
  P0002: 404, // no_data_found: the thing does not exist (for this tenant)
  '55000': 409, // object_not_in_prerequisite_state: a state conflict
  '23505': 409, // unique_violation: already exists
  '23001': 409, // restrict_violation: a guard refuses the change (a review is never rewritten)
  '23514': 422, // check_violation: a field fails validation
  '22023': 422, // invalid_parameter_value: a field fails validation
  '22001': 422, // string_data_right_truncation
  // Text or numbers the database cannot take, should one pass the edge's checks: the client's
  // input, so a 400, never a 500.
  '22021': 400, // character_not_in_repertoire (a NUL, invalid UTF-8)
  '22P05': 400, // untranslatable_character (\u0000 or a lone surrogate inside JSON)
  '22P02': 400, // invalid_text_representation (not a number, a uuid, a timestamp)
  '22003': 400, // numeric_value_out_of_range
  '22008': 400, // datetime_field_overflow
};

/** A refusal as PostgreSQL raises it (postgres.js's error carries these fields). */
export interface PgError {
  code?: string;
  message?: string;
  constraint_name?: string;
  table_name?: string;
}

/** A refusal a SQL function answers in its row instead of raising it (plaudit.submit_review's). */
export interface AnsweredRefusal {
  error_code: string | null;
  error_message: string | null;
  error_constraint?: string | null;
  error_table?: string | null;
}

/** The answered refusal as the error it stands for, or undefined when the row answers none. */
export function refusalInRow(row: AnsweredRefusal): PgError | undefined {
  if (!row.error_code) return undefined;
  return {
    code: row.error_code,
    message: row.error_message ?? undefined,
    constraint_name: row.error_constraint ?? undefined,
    table_name: row.error_table ?? undefined,
  };
}

/** The field a CHECK constraint guards: `reviews_content_check` on reviews → `content`. */
export function fieldOfConstraint(constraint: string, table?: string): string {
  let name = constraint.replace(/_check\d*$/, '');
  if (table && name.startsWith(`${table}_`)) name = name.slice(table.length + 1);
  return name;
}

/** An expected refusal's status and message (naming its field), or undefined for anything else. */
export function refusalOf(err: unknown): { status: 400 | 404 | 409 | 422; message: string } | undefined {
  const e = err as PgError;
  if (!e || typeof e.code !== 'string') return undefined;
  const status = STATUS_BY_SQLSTATE[e.code];
  if (!status) return undefined;
  if (e.code === '23514' && e.constraint_name) {
    return { status: 422, message: `${fieldOfConstraint(e.constraint_name, e.table_name)}: is invalid` };
  }
  return { status, message: e.message ?? 'Request refused' };
}

/** An ApiError for an expected database refusal, or undefined for anything else. */
export function apiErrorFromDb(err: unknown): ApiError | undefined {
  const refusal = refusalOf(err);
  return refusal && new ApiError(refusal.status, refusal.message);
}

/** Runs a query and turns the database's expected refusals into API errors. */
export async function translateDbErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw apiErrorFromDb(err) ?? err;
  }
}
