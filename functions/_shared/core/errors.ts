// The contract's error body, {"statusCode", "message", "error"}: every answer that is an error,
// from the API, the worker function and the development routes alike, is built here. A 400 or
// 422 that names fields also lists them, one entry each, in `errors`.

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}

/** One field that failed validation: its path (`custom_fields.size`), a stable code, and why. */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** The fields of a message in the house style, `field: what is wrong` (`a, b: …` names two). */
export function fieldErrorsOf(message: string): FieldError[] {
  const m = /^([A-Za-z_][\w.\-()]*(?:(?:, | and )[A-Za-z_][\w.\-()]*)*): (.+)$/s.exec(message);
  if (!m) return [];
  const text = m[2];
  const code = /^is required\b/.test(text) ? 'required' : 'invalid';
  return m[1].split(/, | and /).map((field) => ({ field, code, message: text }));
}

/** The contract's error body: {"statusCode", "message", "error"}, and `errors` when fields are named. */
export function errorBody(status: number, message: string, errors?: FieldError[]) {
  const body = { statusCode: status, message, error: statusName(status) };
  if (status !== 400 && status !== 422) return body;
  const fields = errors ?? fieldErrorsOf(message);
  return fields.length ? { ...body, errors: fields } : body;
}
