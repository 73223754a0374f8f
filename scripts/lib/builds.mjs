// The builds the API and the tests use: the embeddable widget (widget/ → widget/dist/widget.js) and
// the business dashboard (dashboard/ → dashboard/dist/, its files named by dist/.vite/manifest.json),
// built by Vite, and the SDK (sdk/ → sdk/dist/, by tsc), which the SDK's examples run against.
// `npm install` builds them (the `prepare` script); `npm start` and `npm test` build again any whose
// sources (src/ or the build's config) are newer than its output.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './database.mjs';

export const WIDGET_SCRIPT = path.join(root, 'widget', 'dist', 'widget.js');
export const DASHBOARD_DIST = path.join(root, 'dashboard', 'dist');
export const DASHBOARD_MANIFEST = path.join(DASHBOARD_DIST, '.vite', 'manifest.json');

const vite = (
  dir,
) => [path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', path.join(dir, 'vite.config.mjs')]];

/** Each build: its folder, its config, the file that shows it was built, and how it is built. */
export const BUILDS = {
  widget: {
    dir: path.join(root, 'widget'),
    config: 'vite.config.mjs',
    output: WIDGET_SCRIPT,
    script: 'build:widget',
    command: vite('widget'),
  },
  dashboard: {
    dir: path.join(root, 'dashboard'),
    config: 'vite.config.mjs',
    output: DASHBOARD_MANIFEST,
    script: 'build:dashboard',
    command: vite('dashboard'),
  },
  sdk: {
    dir: path.join(root, 'sdk'),
    config: 'tsconfig.build.json',
    output: path.join(root, 'sdk', 'dist', 'index.js'),
    script: 'build -w @plaudit/sdk',
    command: ['npm', ['run', '--silent', 'build', '-w', '@plaudit/sdk']],
  },
};

function newestSource(dir) {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((newest, e) => {
    const p = path.join(dir, e.name);
    return Math.max(newest, e.isDirectory() ? newestSource(p) : fs.statSync(p).mtimeMs);
  }, 0);
}

/** Whether the build's output is missing or older than one of its sources. */
export function isStale(name) {
  const { dir, output } = BUILDS[name];
  const config = path.join(dir, BUILDS[name].config);
  const sources = Math.max(newestSource(path.join(dir, 'src')), fs.statSync(config).mtimeMs);
  return !fs.existsSync(output) || fs.statSync(output).mtimeMs < sources;
}

/** Builds again each of the named builds (all by default) that is stale. */
export function ensureBuilt(names = Object.keys(BUILDS)) {
  for (const name of names) {
    if (!isStale(name)) continue;
    const [command, args] = BUILDS[name].command;
    const r = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`building the ${name} failed (npm run ${BUILDS[name].script})`);
  }
}

/** The dashboard's manifest: each chunk by its source, with its file, CSS and static imports. */
export function dashboardManifest() {
  return JSON.parse(fs.readFileSync(DASHBOARD_MANIFEST, 'utf8'));
}

/** A chunk's files with those of every chunk it imports statically, each once (dist-relative). */
export function chunkFiles(manifest, key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) chunkFiles(manifest, imported, files);
  return files;
}

/** What a first visit downloads before the dashboard can draw: the entry, its static imports and their CSS. */
export function dashboardFirstLoad(manifest = dashboardManifest()) {
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  return { entry, files: chunkFiles(manifest, entry) };
}

/** A built file's size compressed with gzip -9, as a CDN would serve it. */
export function gzipBytes(file) {
  return gzipSync(fs.readFileSync(path.isAbsolute(file) ? file : path.join(DASHBOARD_DIST, file)), { level: 9 }).length;
}
