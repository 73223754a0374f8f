// README.md says what the checkout holds: its Documentation section lists every page of docs/
// once, its Layout table names folders and files that exist (and every top-level folder), its
// Configuration table names variables the code reads, and its commands are package.json's scripts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** The text of a `## ` section of a markdown document, up to the next one. */
export function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no section "${title}"`);
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next < 0 ? undefined : next);
}

/** A markdown table's rows, each as its cells (the header and the rule left out). */
export function tableRows(markdown: string): string[][] {
  return markdown.split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

/** The files a Documentation list names, each as often as it leads an entry (`name — what it holds`). */
export function listedDocs(markdown: string): string[] {
  return [...markdown.matchAll(/(?:^- |; )([\w./-]+\.md) — /gm)].map((m) => m[1]);
}

/** The backticked paths of a text: `a/b/`, `a/b.ts` (not `@scope/name`, not a URL's `/path`). */
export function pathsIn(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]).filter((p) =>
    p.includes('/') && !p.startsWith('/') && !p.startsWith('@') && !p.includes('*') && !/[<>:…]/.test(p)
  );
}

const exists = (p: string) => fs.existsSync(path.join(root, p));

describe('README.md', () => {
  it('lists every page of docs/ in its Documentation section exactly once, and only files that exist', () => {
    const listed = listedDocs(section(readme, 'Documentation'));
    const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(docs.length).toBeGreaterThan(10);
    const counts = Object.fromEntries(docs.map((d) => [d, listed.filter((l) => l === d).length]));
    expect(Object.entries(counts).filter(([, n]) => n !== 1)).toEqual([]);
    expect(listed.filter((l) => !exists(l))).toEqual([]);
  });

  it('names in its Layout table only paths that exist, and every top-level folder', () => {
    const rows = tableRows(section(readme, 'Layout'));
    expect(rows.length).toBeGreaterThan(10);
    const named = rows.map(([p]) => p.replace(/^`|`$/g, ''));
    expect(named.filter((p) => !exists(p))).toEqual([]);
    // In a row's description, a path is the repository's or the row's own (`products/api/` in `tests/`);
    // what npm install builds (dist/) is left out.
    const missing = rows.flatMap(([p, holds]) =>
      pathsIn(holds)
        .filter((q) => !q.split('/').includes('dist'))
        .filter((q) => !exists(q) && !exists(path.join(p.replace(/`/g, ''), q)))
        .map((q) => `${p}: ${q}`)
    );
    expect(missing).toEqual([]);
    const ignored = fs.readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n').map((l) => l.replace(/\/$/, ''));
    const folders = fs.readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !ignored.includes(e.name))
      .map((e) => `${e.name}/`);
    expect(folders.filter((f) => !named.some((p) => p.startsWith(f)))).toEqual([]);
  });

  it('names in its Configuration table only variables the code reads', () => {
    const rows = tableRows(section(readme, 'Configuration'));
    const names = new Set(rows.flatMap(([variable, , meaning]) => [
      ...[...variable.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]),
      ...[...meaning.matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`/g)].map((m) => m[1]),
    ]));
    expect(names.size).toBeGreaterThan(30);
    const sources = ['functions', 'scripts'].flatMap((dir) => sourceFiles(path.join(root, dir)))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    const unread = [...names].filter((name) => !new RegExp(`['"\`]${name}['"\`]|env\\.${name}\\b`).test(sources));
    expect(unread).toEqual([]);
  });

  it("runs only package.json's scripts", () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const commands = [...readme.matchAll(/\bnpm (?:run (?:--silent )?([\w:-]+)|(start|test)\b)/g)].map((m) =>
      m[1] ?? m[2]
    );
    expect(commands.length).toBeGreaterThan(5);
    expect([...new Set(commands)].filter((c) => !(c in scripts))).toEqual([]);
  });

  it('reads sections, lists and paths as the checks above expect', () => {
    const doc = '# T\n\n## A\n\n- docs/x.md — x; CONTRIBUTING.md — c\n- docs/y.md — y, not docs/z.md — z\n\n## B\n';
    expect(listedDocs(section(doc, 'A'))).toEqual(['docs/x.md', 'CONTRIBUTING.md', 'docs/y.md']);
    expect(tableRows('| P | H |\n| - | - |\n| `a/` | b |\n')).toEqual([['`a/`', 'b']]);
    expect(pathsIn('`src/a.ts`, `@plaudit/sdk`, `/app`, `x`, `tests/<feature>/`, `functions/**`')).toEqual([
      'src/a.ts',
    ]);
  });
});

/** The non-test sources of a folder (.ts, .mjs, .js), recursively, without installed packages. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.(ts|mjs|js)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}
