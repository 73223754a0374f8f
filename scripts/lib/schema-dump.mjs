// The schema as the migrations leave it, as text to read: `pg_dump --schema-only` of the private
// schema without what says nothing about it — the dump's banners and session settings, the
// "Name/Type/Schema/Owner" comment blocks over every object, the ownership lines of objects
// that plaudit_owner owns (all of them, unless a line says otherwise), and the revocation from
// PUBLIC that every function has — with long lines broken at their commas. Function bodies
// written `as $$ … $$` come out as written. The committed picture is supabase/schema.sql
// (`npm run schema:dump` writes it; a test compares it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readSources } from './sql-sources.mjs';
import { splitStatements } from './sql-statements.mjs';

const SYSTEM_PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';

export function pgDump() {
  return fs.existsSync(SYSTEM_PG_DUMP) ? SYSTEM_PG_DUMP : 'pg_dump';
}

const HEADER =
  `-- Schema plaudit at HEAD, written by \`npm run schema:dump\` (pg_dump, made readable); tests/schema/schema-dump.test.ts
-- fails while it is stale. Every object is owned by plaudit_owner and EXECUTE on every function is revoked from
-- PUBLIC: the GRANT lines say who may use what. Tables come from supabase/migrations/ and supabase/changes/; functions,
-- views, trigger bindings, policies and grants from supabase/schemas/. A function is listed here by its signature,
-- with the file that holds its body.
`;

/** Lines of pg_dump's output that say nothing about this schema. */
const NOISE = [
  /^-- (Dumped (from|by) |PostgreSQL database dump)/,
  /^\\(un)?restrict /,
  /^SET [a-z_]+ = /,
  /^SELECT pg_catalog\.set_config\('search_path'/,
  /^ALTER [A-Z ]+ .* OWNER TO plaudit_owner;$/,
  /^REVOKE ALL ON FUNCTION .* FROM PUBLIC;$/,
];

export const LONGEST_LINE = 160;

/** `pg_dump --schema-only` of schema plaudit, as pg_dump writes it. */
export function rawSchemaDump(databaseUrl) {
  const r = spawnSync(pgDump(), ['--schema-only', '--schema=plaudit', '--no-tablespaces', databaseUrl], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`pg_dump failed: ${r.stderr || r.error?.message}`);
  return r.stdout;
}

export function dumpSchema(databaseUrl) {
  return HEADER + readable(signaturesOnly(rawSchemaDump(databaseUrl)));
}

/**
 * pg_dump's functions as their signatures, each with the source file that holds its body: the
 * bodies have one home, supabase/schemas/.
 */
export function signaturesOnly(dump) {
  const homes = new Map(readSources().filter((d) => d.kind === 'function').map((d) => [d.name, d.file]));
  let text = '';
  let at = 0;
  // pg_dump's \restrict lines are psql's, not SQL: the lexer reads them as comments of the same length.
  const lexed = dump.replace(/^\\(un)?restrict .*$/gm, (line) => `-- ${line.slice(3)}`);
  for (const statement of splitStatements(lexed)) {
    const m = /^CREATE FUNCTION (plaudit\.\w+)\(/.exec(statement.text);
    if (!m) continue;
    const header = statement.text.slice(0, statement.text.search(/\n {4}(LANGUAGE|BEGIN ATOMIC|AS )/)).replace(
      /\s+/g,
      ' ',
    );
    text += dump.slice(at, statement.start) + `-- FUNCTION ${m[1]} (${homes.get(m[1]) ?? 'no source holds it'})\n` +
      `--   ${header.slice(`CREATE FUNCTION ${m[1]}`.length)}`;
    at = statement.end;
  }
  return text + dump.slice(at);
}

/** pg_dump's output without its noise, long lines broken. */
export function readable(dump) {
  const lines = dump
    // "--\n-- Name: x; Type: FUNCTION; Schema: plaudit; Owner: plaudit_owner\n--" over every object.
    .replace(/^--\n-- (Name|Data for Name): [^\n]*\n--\n/gm, '')
    .split('\n')
    .filter((line) => !NOISE.some((noise) => noise.test(line)))
    .join('\n')
    // "ALTER TABLE ONLY x\n    ADD CONSTRAINT …;" on one line.
    .replace(/^(ALTER TABLE ONLY \S+)\n {4}(ADD CONSTRAINT [^\n]*;)$/gm, '$1 $2')
    // A function's attributes (language, security, settings, "AS $$") on one line under its name.
    .replace(
      /^( {4}(?:LANGUAGE|SET|AS|IMMUTABLE|STABLE|PARALLEL|STRICT|SECURITY|COST|ROWS)\b[^\n]*\n)+/gm,
      joinAttributes,
    )
    // A comment right under what it comments on.
    .replace(/;\n\n(COMMENT ON )/g, ';\n$1')
    .replace(/^--\n/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .split('\n');
  const text = mergeGrants(lines).flatMap((line) => line.length > LONGEST_LINE ? breakAtCommas(line) : [line]);
  // One-line statements of one kind (grants, indexes, constraints, triggers) stand together.
  const kept = text.filter((line, i) =>
    line !== '' || !(oneLiner(text[i - 1]) && oneLiner(text[i + 1]) && kindOf(text[i - 1]) === kindOf(text[i + 1]))
  );
  return kept.join('\n').replace(/^\n+/, '\n').replace(/\n*$/, '\n');
}

function joinAttributes(block) {
  const words = block.trimEnd().split('\n').map((line) => line.trim());
  const lines = [];
  for (const word of words) {
    if (lines.length > 0 && lines.at(-1).length + 1 + word.length <= LONGEST_LINE - 4) {
      lines[lines.length - 1] += ' ' + word;
    } else lines.push(word);
  }
  return lines.map((line) => `    ${line}\n`).join('');
}

// Grants of one object to several roles in one statement.
function mergeGrants(lines) {
  const merged = [];
  for (const line of lines) {
    const m = /^(GRANT [A-Z ,]+ ON .+) TO (\w+);$/.exec(line);
    const previous = m && /^(GRANT [A-Z ,]+ ON .+) TO ([\w, ]+);$/.exec(merged.at(-1) ?? '');
    if (m && previous && previous[1] === m[1]) merged[merged.length - 1] = `${m[1]} TO ${previous[2]}, ${m[2]};`;
    else merged.push(line);
  }
  return merged;
}

const oneLiner = (line) => /^[A-Z]/.test(line ?? '') && line.endsWith(';');
const kindOf = (line) => line.split(' ').slice(0, 2).join(' ');

/**
 * A long line as several, broken after the commas that stand outside quotes and at the outermost
 * parenthesis depth the line has commas at; the continuations indented. SQL reads them the same.
 */
export function breakAtCommas(line) {
  // A comment's continuations stay comments.
  const indent = line.startsWith('--') ? '--     ' : /^\s*/.exec(line)[0] + '    ';
  const commas = [];
  let depth = 0;
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && line[i + 1] === ' ') commas.push({ at: i + 1, depth });
  }
  if (commas.length === 0) return [line];
  const outermost = Math.min(...commas.map((c) => c.depth));
  const lines = [];
  let start = 0;
  let last = 0;
  for (const { at } of commas.filter((c) => c.depth <= outermost + 1)) {
    if (at - start > LONGEST_LINE - indent.length && last > start) {
      lines.push(line.slice(start, last).trimEnd());
      start = last + 1;
    }
    last = at;
  }
  lines.push(line.slice(start));
  return lines.map((l, i) => (i === 0 ? l : indent + l.trimStart()));
}

export const SCHEMA_FILE = path.join('supabase', 'schema.sql');
