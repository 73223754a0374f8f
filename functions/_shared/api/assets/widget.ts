// The embeddable widget's script (widget/, built by `npm run build:widget`, which `npm install`
// runs), as the API serves it: at a stable URL with a short cache, and at a content-hashed URL
// that never changes (`immutable`), which the embed answer's snippet uses.
import { createHash } from 'node:crypto';
import { readFileBytes } from '../../core/runtime.ts';

const WIDGET_FILE = new URL('../../../../widget/dist/widget.js', import.meta.url);

export interface WidgetScript {
  bytes: Uint8Array;
  /** The first 16 hex digits of the script's SHA-256: its immutable file name and its ETag. */
  hash: string;
}

let cached: Promise<WidgetScript | null> | undefined;

/** The built script, read once per process; null when it was not built. */
export function widgetScript(): Promise<WidgetScript | null> {
  cached ??= readFileBytes(WIDGET_FILE).then(
    (bytes) => ({ bytes, hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16) }),
    () => null,
  );
  return cached;
}

/** Where a page loads the widget from: the content-hashed address when the script is built. */
export async function widgetScriptUrl(publicUrl: string): Promise<string> {
  const script = await widgetScript();
  return `${publicUrl}/embed/v1/widget${script ? `.${script.hash}` : ''}.js`;
}

// The snippets the embed answer gives live with the dashboard's, in one module.
export { embedSnippet, WIDGET_HEIGHT } from '../../core/embed-snippets.ts';
