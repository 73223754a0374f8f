import type { FieldError } from '../../core/errors.ts';

// A failed schema check, said the way the rest of the API says it: one entry per field, a stable
// code, a short message in the house style ("must be at most 200 characters"). A message written
// for a schema (lowercase, "must be an http(s) URL") is kept as it is.

interface Issue {
  readonly code: string;
  readonly path: PropertyKey[];
  readonly message: string;
  readonly origin?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly inclusive?: unknown;
  readonly expected?: unknown;
  readonly format?: unknown;
  readonly values?: unknown;
}

const FORMATS: Record<string, string> = {
  email: 'must be an e-mail address',
  url: 'must be a URL',
  uuid: 'must be a UUID',
  datetime: 'must be an ISO 8601 date-time',
  date: 'must be a date (YYYY-MM-DD)',
};

const plural = (n: unknown, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function bound(issue: Issue, side: 'least' | 'most'): [string, string] {
  const limit = side === 'least' ? issue.minimum : issue.maximum;
  const exclusive = issue.inclusive === false;
  switch (issue.origin) {
    case 'string':
      if (side === 'least' && limit === 1) return ['too_short', 'must not be empty'];
      return [side === 'least' ? 'too_short' : 'too_long', `must be at ${side} ${plural(limit, 'character')}`];
    case 'array':
    case 'set':
      return [side === 'least' ? 'too_few' : 'too_many', `must have at ${side} ${plural(limit, 'item')}`];
    default:
      return [
        side === 'least' ? 'too_small' : 'too_big',
        exclusive ? `must be ${side === 'least' ? 'greater' : 'less'} than ${limit}` : `must be at ${side} ${limit}`,
      ];
  }
}

function describe(issue: Issue): [string, string] {
  const own = /^[a-z]/.test(issue.message);
  switch (issue.code) {
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return ['required', 'is required'];
      return ['invalid_type', `must be ${/^[aeiou]/.test(String(issue.expected)) ? 'an' : 'a'} ${issue.expected}`];
    case 'too_small':
      return own ? ['too_small', issue.message] : bound(issue, 'least');
    case 'too_big':
      return own ? ['too_big', issue.message] : bound(issue, 'most');
    case 'invalid_format':
      return ['invalid_format', own ? issue.message : FORMATS[String(issue.format)] ?? 'has an invalid format'];
    case 'invalid_value':
      return [
        'invalid_value',
        own ? issue.message : `must be one of: ${(issue.values as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      ];
    case 'unrecognized_keys':
      return ['unknown_field', 'is not a known field'];
    default:
      return ['invalid', own ? issue.message : issue.message.charAt(0).toLowerCase() + issue.message.slice(1)];
  }
}

/** The field errors of a failed schema check; `where` names a failure of the whole input. */
export function fieldErrorsOfIssues(issues: readonly Issue[], where: string): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : where;
    // The first problem of a field is the one to fix; a second (a URL that is also not http)
    // would only repeat it.
    if (byField.has(field)) continue;
    const [code, message] = describe(issue);
    byField.set(field, { field, code, message });
  }
  return [...byField.values()];
}

/** The contract's one-line message for a list of field errors. */
export function messageOf(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.field}: ${e.message}`).join('; ');
}
