// The contract's error body, {"statusCode", "message", "error"}: every answer that is an error,
// from the API, the worker function and the development routes alike, is built here.

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

/** The contract's error body: {"statusCode", "message", "error"}. */
export function errorBody(status: number, message: string) {
  return { statusCode: status, message, error: statusName(status) };
}
