// The business dashboard's build (dashboard/, built by `npm run build:dashboard`, which `npm install`
// runs) as the API serves it. Vite writes content-hashed files under dashboard/dist/assets/ and a
// manifest naming them; the manifest, read once per process, says which files the page's shell
// loads and is the list of files that may be served at all: no name outside it reaches the disk.
import { createHash } from 'node:crypto';
import { readFileBytes } from '../../core/runtime.ts';

const DIST = new URL('../../../../dashboard/dist/', import.meta.url);
const ENTRY = 'src/main.tsx';

/** A name Vite gives a built file: `main-BL-uMk9D.js`, `uPlot.esm-Cz3zL0fH.css`. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}\.(js|css|svg|woff2)$/;

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  woff2: 'font/woff2',
};

/** One chunk of Vite's manifest (https://vite.dev/guide/backend-integration). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
  assets?: string[];
}

export interface DashboardBuild {
  /** The entry's script, relative to dist/assets/ as every name here is. */
  script: string;
  /** The stylesheets of the entry and of the chunks it imports statically. */
  styles: string[];
  /** The chunks the entry imports statically, all the way down: the page preloads them. */
  preloads: string[];
  /** Every file of the build: the only names /app/assets/ serves. */
  files: Set<string>;
}

export interface DashboardAsset {
  bytes: Uint8Array;
  contentType: string;
  /** A digest of the bytes, quoted. */
  etag: string;
}

const inAssets = (file: string) => file.startsWith('assets/') ? file.slice('assets/'.length) : undefined;

/** What the shell needs from a parsed manifest, or null when it holds no entry. */
export function readManifest(manifest: Record<string, ManifestChunk>): DashboardBuild | null {
  const entry = manifest[ENTRY] ?? Object.values(manifest).find((c) => c.isEntry);
  const script = entry && inAssets(entry.file);
  if (!entry || !script) return null;
  const files = new Set(
    Object.values(manifest)
      .flatMap((c) => [c.file, ...(c.css ?? []), ...(c.assets ?? [])])
      .map(inAssets)
      .filter((f): f is string => f !== undefined && FILE_NAME.test(f)),
  );
  const preloads: string[] = [];
  const styles: string[] = [...(entry.css ?? [])];
  const seen = new Set<string>();
  const visit = (keys: string[] | undefined) => {
    for (const key of keys ?? []) {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) continue;
      seen.add(key);
      preloads.push(chunk.file);
      styles.push(...(chunk.css ?? []));
      visit(chunk.imports);
    }
  };
  visit(entry.imports);
  const served = (list: string[]) => [...new Set(list.map(inAssets))].filter((f): f is string => !!f && files.has(f));
  return { script, styles: served(styles), preloads: served(preloads), files };
}

let build: Promise<DashboardBuild | null> | undefined;

/** The build, read once per process; null when the dashboard was not built. */
export function dashboardBuild(): Promise<DashboardBuild | null> {
  build ??= readFileBytes(new URL('.vite/manifest.json', DIST)).then(
    (bytes) => readManifest(JSON.parse(new TextDecoder().decode(bytes))),
    () => null,
  ).catch(() => null);
  return build;
}

const assets = new Map<string, Promise<DashboardAsset | null>>();

/** A built file by its name under dist/assets/, read once; null for any name the build does not hold. */
export async function dashboardAsset(name: string): Promise<DashboardAsset | null> {
  if (!FILE_NAME.test(name)) return null;
  const built = await dashboardBuild();
  if (!built?.files.has(name)) return null;
  let asset = assets.get(name);
  if (!asset) {
    asset = readFileBytes(new URL(`assets/${name}`, DIST)).then(
      (bytes) => ({
        bytes,
        contentType: CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)],
        etag: `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`,
      }),
      () => null,
    );
    assets.set(name, asset);
  }
  return asset;
}
