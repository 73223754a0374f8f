// Splitting a SQL file into its statements, each with the comment lines right above it, and
// naming the ones that define a function or a view: what the migration writer and the tests read
// supabase/schemas/, the changes and the migrations with. A lexer, not a parser: it knows quotes, dollar
// quotes, comments and `begin atomic … end`, which is all it takes to find where a statement ends.

/**
 * @typedef {{ text: string, comment: string, start: number, end: number }} Statement
 * `text` runs from the statement's first word to its semicolon (included); `comment` is the block
 * of `--` lines directly above it (no blank line between), as written.
 */

/** @returns {Statement[]} */
export function splitStatements(source) {
  const statements = [];
  let i = 0;
  let start = -1;
  let atomicDepth = 0;
  const n = source.length;
  const wordAt = (at, word) =>
    source.slice(at, at + word.length).toLowerCase() === word && !/[\w$]/.test(source[at + word.length] ?? '') &&
    !/[\w$]/.test(source[at - 1] ?? '');
  while (i < n) {
    const ch = source[i];
    if (ch === '-' && source[i + 1] === '-') {
      const eol = source.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
      continue;
    }
    if (ch === '/' && source[i + 1] === '*') {
      const close = source.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (start < 0) start = i;
    if (ch === "'" || ch === '"') {
      // '' and "" inside are two quotes back to back: the loop reads them as a close and an open.
      const close = source.indexOf(ch, i + 1);
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (ch === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(source.slice(i, i + 64));
      if (tag) {
        const close = source.indexOf(tag[0], i + tag[0].length);
        i = close < 0 ? n : close + tag[0].length;
        continue;
      }
    }
    if ((ch === 'b' || ch === 'B') && wordAt(i, 'begin') && /^begin\s+atomic\b/i.test(source.slice(i, i + 20))) {
      atomicDepth++;
      i += 5;
      continue;
    }
    if (atomicDepth > 0 && (ch === 'e' || ch === 'E') && wordAt(i, 'end')) {
      atomicDepth--;
      i += 3;
      continue;
    }
    if (ch === ';' && atomicDepth === 0) {
      statements.push({ text: source.slice(start, i + 1), comment: commentAbove(source, start), start, end: i + 1 });
      start = -1;
    }
    i++;
  }
  if (start >= 0 && source.slice(start).trim()) {
    throw new Error(`a statement without its semicolon at offset ${start}: ${source.slice(start, start + 60)}…`);
  }
  return statements;
}

/** The `--` lines directly above `at` (no blank line between), without section rulers. */
function commentAbove(source, at) {
  const lines = source.slice(0, at).split('\n');
  lines.pop(); // the statement's own line, up to its first word
  const block = [];
  while (lines.length > 0 && /^\s*--/.test(lines.at(-1))) block.unshift(lines.pop());
  return block.join('\n');
}

/**
 * The lookup tables whose rows the sources keep, each with its key column. A feature's source
 * file inserts the rows it needs (the trail's actions it writes) next to the code that uses them,
 * `on conflict (key) do update`, so that two branches adding rows merge with git alone, as their
 * functions do. The sources never delete a row (a trail entry may name it for good); its other
 * columns are its source's.
 */
export const SOURCE_ROWS = new Map([['plaudit.trail_actions', 'action']]);

const IDENT = String.raw`(?:"[^"]+"|[a-z_][\w$]*)`;
const NAME = String.raw`(${IDENT}\.${IDENT})`;
const FUNCTION = new RegExp(String.raw`^create\s+(?:or\s+replace\s+)?function\s+${NAME}\s*\(`, 'i');
const VIEW = new RegExp(String.raw`^create\s+(?:or\s+replace\s+)?view\s+${NAME}\b`, 'i');
const TRIGGER = new RegExp(
  String.raw`^create\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+(${IDENT})\s[\s\S]*?\son\s+${NAME}`,
  'i',
);
const POLICY = new RegExp(String.raw`^create\s+policy\s+(${IDENT})\s+on\s+${NAME}`, 'i');
const GRANT = /^(?:grant|revoke)\s/i;
const ROWS = new RegExp(String.raw`^insert\s+into\s+${NAME}`, 'i');
const COMMENT = new RegExp(
  String.raw`^comment\s+on\s+(function|view|trigger|policy)\s+(?:(${IDENT})\s+on\s+)?${NAME}`,
  'i',
);

const unquote = (name) => name.startsWith('"') ? name.slice(1, -1) : name.toLowerCase();

/**
 * What a statement defines: `{ kind: 'function' | 'view', name }` (schema-qualified, as written),
 * `{ kind: 'trigger' | 'policy', name, table, identity }`, `{ kind: 'grant' }`, `{ kind: 'rows', name }`
 * (an insert into the table `name`),
 * `{ kind: 'comment', on, name }`, or null for anything else.
 */
export function definitionOf(statement) {
  const text = statement.text ?? statement;
  let m = FUNCTION.exec(text);
  if (m) return { kind: 'function', name: m[1].toLowerCase() };
  m = VIEW.exec(text);
  if (m) return { kind: 'view', name: m[1].toLowerCase() };
  m = TRIGGER.exec(text);
  if (m) return bound('trigger', m[1], m[2]);
  m = POLICY.exec(text);
  if (m) return bound('policy', m[1], m[2]);
  if (GRANT.test(text)) return { kind: 'grant', name: text.replace(/\s+/g, ' ').toLowerCase() };
  m = ROWS.exec(text);
  if (m) return { kind: 'rows', name: m[1].toLowerCase() };
  m = COMMENT.exec(text);
  if (m) {
    const on = m[1].toLowerCase();
    return { kind: 'comment', on, name: m[2] ? bound(on, m[2], m[3]).name : m[3].toLowerCase() };
  }
  return null;
}

/** A trigger or policy is known by its name (as PostgreSQL keeps it: 63 bytes at most) and its table. */
function bound(kind, name, table) {
  const kept = Buffer.from(unquote(name)).subarray(0, 63).toString();
  const on = table.toLowerCase();
  return { kind, name: `${kept} on ${on}`, table: on, identity: `${kind} ${kept} on ${on}` };
}
