// The embeddable widget's build (widget/ → widget/dist/widget.js). `npm install` builds it (the
// `prepare` script); `npm start` and `npm test` build it again when a source file is newer.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './database.mjs';

export const WIDGET_SCRIPT = path.join(root, 'widget', 'dist', 'widget.js');

function newestSource(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((newest, e) => {
    const p = path.join(dir, e.name);
    return Math.max(newest, e.isDirectory() ? newestSource(p) : fs.statSync(p).mtimeMs);
  }, 0);
}

export function ensureWidgetBuilt() {
  const sources = Math.max(
    newestSource(path.join(root, 'widget', 'src')),
    fs.statSync(path.join(root, 'widget', 'vite.config.mjs')).mtimeMs,
  );
  if (fs.existsSync(WIDGET_SCRIPT) && fs.statSync(WIDGET_SCRIPT).mtimeMs >= sources) return;
  const r = spawnSync(
    path.join(root, 'node_modules', '.bin', 'vite'),
    ['build', '--config', 'widget/vite.config.mjs'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new Error('building the widget failed (npm run build:widget)');
}
