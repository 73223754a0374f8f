// The layers of docs/ARCHITECTURE.md, kept: every relative import in functions/ goes to the
// importer's own room or to a room beneath it, the API and the worker never import each other's
// code, and nothing in functions/ reaches into tests/ or scripts/. In the dashboard, a screen
// imports no other screen: only its own section's files, and what lives outside screens/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
const functions = path.join(root, 'functions');

/** Each room, with its rank: a file may import its own room and rooms of a lower rank it may see. */
const ROOMS: { room: string; rank: number; sees: string[] }[] = [
  { room: '_shared/core', rank: 0, sees: [] },
  { room: '_shared/api/http', rank: 1, sees: ['_shared/core'] },
  { room: '_shared/api/api-keys', rank: 1, sees: ['_shared/core'] },
  { room: '_shared/api/assets', rank: 1, sees: ['_shared/core'] },
  { room: '_shared/api/middleware', rank: 2, sees: ['_shared/core', '_shared/api/http', '_shared/api/api-keys'] },
  {
    room: '_shared/api/pages',
    rank: 3,
    sees: ['_shared/core', '_shared/api/http', '_shared/api/api-keys', '_shared/api/assets', '_shared/api/middleware'],
  },
  {
    room: '_shared/api/routes',
    rank: 3,
    sees: ['_shared/core', '_shared/api/http', '_shared/api/api-keys', '_shared/api/assets', '_shared/api/middleware'],
  },
  // The fast reads answer a few routes before the router, with the routes' own statements.
  {
    room: '_shared/api/fast-reads',
    rank: 4,
    sees: ['_shared/core', '_shared/api/http', '_shared/api/api-keys', '_shared/api/middleware', '_shared/api/routes'],
  },
  // The MCP server's tools call the routes (in this process), with the routes' own schemas.
  {
    room: '_shared/api/mcp',
    rank: 4,
    sees: ['_shared/core', '_shared/api/http', '_shared/api/api-keys', '_shared/api/middleware', '_shared/api/routes'],
  },
  // The document describes the routes: it reads their definitions and the webhook events.
  { room: '_shared/api/openapi', rank: 4, sees: ['_shared/core', '_shared/api/http', '_shared/api/routes'] },
  {
    room: '_shared/api/app.ts',
    rank: 5,
    sees: [
      '_shared/core',
      '_shared/api/http',
      '_shared/api/api-keys',
      '_shared/api/assets',
      '_shared/api/middleware',
      '_shared/api/fast-reads',
      '_shared/api/mcp',
      '_shared/api/openapi',
      '_shared/api/pages',
      '_shared/api/routes',
    ],
  },
  { room: 'api', rank: 6, sees: ['_shared/core', '_shared/api/app.ts'] },
  { room: '_shared/worker', rank: 1, sees: ['_shared/core'] },
  { room: 'worker', rank: 2, sees: ['_shared/core', '_shared/worker'] },
];

/** The room of a path under functions/ (the longest room that contains it). */
export function roomOf(file: string): string | undefined {
  const rel = path.relative(functions, file).split(path.sep).join('/');
  return ROOMS.map((r) => r.room)
    .filter((room) => rel === room || rel.startsWith(`${room}/`))
    .sort((a, b) => b.length - a.length)[0];
}

/** Why importing `to` from `from` breaks the layers, or null when it is allowed. */
export function violation(from: string, to: string): string | null {
  if (!to.startsWith(functions + path.sep)) {
    return to.startsWith(root) ? `imports ${path.relative(root, to)}, outside functions/` : null;
  }
  const a = roomOf(from);
  const b = roomOf(to);
  if (!a || !b) return `${path.relative(root, a ? to : from)} is in no room of docs/ARCHITECTURE.md`;
  if (a === b) return null;
  const rule = ROOMS.find((r) => r.room === a)!;
  return rule.sees.includes(b) ? null : `${a} may not import ${b}`;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function relativeImports(file: string, only: 'static' | 'all' = 'all'): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((m) => (only === 'static' ? m[1] : m[1] ?? m[2]))
    .filter((spec): spec is string => spec?.startsWith('.') ?? false)
    .map((spec) => path.resolve(path.dirname(file), spec));
}

const dashboard = path.join(root, 'dashboard', 'src');
const screens = path.join(dashboard, 'screens');

/** The dashboard's sources (.ts and .tsx), without their tests. */
function dashboardFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return dashboardFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The screen a dashboard file belongs to: its section's folder, or itself when it lies in screens/. */
export function screenOf(file: string): string | undefined {
  const rel = path.relative(screens, file);
  if (rel.startsWith('..')) return undefined;
  return rel.split(path.sep)[0];
}

/** Why a dashboard file may not import `to`, or null when it may. */
export function dashboardViolation(from: string, to: string): string | null {
  const a = screenOf(from);
  const b = screenOf(to);
  if (!a || !b || a === b) return null;
  return `the screen ${a} imports the screen ${b}: move what they share to ui/ or a module outside screens/`;
}

describe('import boundaries (docs/ARCHITECTURE.md)', () => {
  const files = sourceFiles(functions);

  it('every source file of functions/ is in a room', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => !roomOf(f)).map((f) => path.relative(root, f))).toEqual([]);
  });

  it('every import goes to the same room or one beneath it', () => {
    const broken = files.flatMap((from) =>
      relativeImports(from).flatMap((to) => {
        const why = violation(from, to);
        return why ? [`${path.relative(root, from)} → ${path.relative(root, to)}: ${why}`] : [];
      })
    );
    expect(broken).toEqual([]);
  });

  it('flags an upward import, a worker–API import and a reach into tests/', () => {
    const f = (p: string) => path.join(functions, p);
    expect(violation(f('_shared/core/db/client.ts'), f('_shared/api/http/errors.ts'))).toBe(
      '_shared/core may not import _shared/api/http',
    );
    expect(violation(f('_shared/worker/worker.ts'), f('_shared/api/middleware/request-log/index.ts')))
      .toBe('_shared/worker may not import _shared/api/middleware');
    expect(violation(f('_shared/api/routes/reviews/moderation.ts'), f('_shared/worker/worker.ts'))).toBe(
      '_shared/api/routes may not import _shared/worker',
    );
    expect(violation(f('_shared/api/http/env.ts'), f('_shared/api/middleware/body-limit/index.ts')))
      .toBe('_shared/api/http may not import _shared/api/middleware');
    expect(violation(f('_shared/core/config.ts'), path.join(root, 'tests/helpers/db.ts'))).toBe(
      'imports tests/helpers/db.ts, outside functions/',
    );
    expect(violation(f('_shared/api/routes/reviews/moderation.ts'), f('_shared/core/db/client.ts'))).toBeNull();
  });
});

describe('dashboard boundaries (docs/ARCHITECTURE.md)', () => {
  const files = dashboardFiles(dashboard);

  it('no screen imports another screen; a section imports its own files', () => {
    expect(files.filter((f) => screenOf(f)).length).toBeGreaterThan(20);
    const broken = files.flatMap((from) =>
      relativeImports(from).flatMap((to) => {
        const why = dashboardViolation(from, to);
        return why ? [`${path.relative(root, from)} → ${path.relative(root, to)}: ${why}`] : [];
      })
    );
    expect(broken).toEqual([]);
  });

  it('flags a screen that imports another, and lets a section import itself', () => {
    const f = (p: string) => path.join(screens, p);
    expect(dashboardViolation(f('requests/stats.tsx'), f('webhooks/words.ts'))).toBe(
      'the screen requests imports the screen webhooks: move what they share to ui/ or a module outside screens/',
    );
    expect(dashboardViolation(f('team.tsx'), f('inbox.tsx'))).toBe(
      'the screen team.tsx imports the screen inbox.tsx: move what they share to ui/ or a module outside screens/',
    );
    expect(dashboardViolation(f('requests/bulk.tsx'), f('requests/bulk-rows.ts'))).toBeNull();
    expect(dashboardViolation(f('forms/editor.tsx'), path.join(dashboard, 'ui/fields.tsx'))).toBeNull();
  });

  it('no dashboard source file is over 500 lines', () => {
    const long = files.filter((f) => fs.readFileSync(f, 'utf8').split('\n').length > 500);
    expect(long.map((f) => path.relative(root, f))).toEqual([]);
  });

  it('the map of screens loads only the inbox and a review with the first load; every other screen is lazy', () => {
    const statics = relativeImports(path.join(dashboard, 'routes.tsx'), 'static').filter((to) => screenOf(to));
    expect(statics.map((f) => path.relative(screens, f)).sort()).toEqual(['inbox.tsx', 'review.tsx']);
  });
});
