// HTML text and links, for the hosted pages and the e-mails alike.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The value as a link when it is an http(s) URL, else '' (never `javascript:` or `data:`). */
export function safeLink(value: unknown): string {
  const s = String(value ?? '');
  return /^https?:\/\//i.test(s) ? s : '';
}

// Server-rendered HTML (the hosted pages, the widget's fragments). One rule: every interpolated
// value is escaped, by the markup`` tagged template, unless it is itself the result of markup`` (or
// of raw(), for the few constant fragments that need it). Arrays are rendered item by item under
// the same rule. (Not named `html`: the formatter re-indents templates with that tag, which would
// change the pages.)

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function markup(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** A constant fragment written in this code base (never data). */
export function raw(fragment: string): SafeHtml {
  return new SafeHtml(fragment);
}

/** JSON inside a script element: no `</script>`, no HTML comment opener can end it early. */
export function jsonForScript(value: unknown): SafeHtml {
  return raw(JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'));
}
