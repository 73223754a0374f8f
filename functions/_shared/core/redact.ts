// What must never reach a log, even inside an error message or a stack trace: the API's request
// log and the worker's log both pass their text through here.
const SECRETS: [RegExp, string][] = [
  [/\brk_[0-9A-Za-z]{8,}/g, 'rk_[redacted]'],
  [/\bwhsec_[0-9A-Za-z+/=_-]+/g, 'whsec_[redacted]'],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*(?::[^\s/@]*)?@/gi, '$1[redacted]@'],
  [/[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[A-Za-z]{2,}/g, '[e-mail]'],
];

/** The text with API keys, webhook secrets, URL credentials and e-mail addresses blanked out. */
export function redact(text: string): string {
  return SECRETS.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}
