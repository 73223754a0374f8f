// CSV, the one reader and writer of the project (the dashboard's uploads, review imports, the tests
// reading the exports): reading a file a spreadsheet wrote (a byte-order mark, commas or semicolons,
// CRLF, LF or CR line ends, quoted cells with doubled quotes and line breaks inside, RFC 4180) and
// writing one (RFC 4180, CRLF, cells that a spreadsheet would run as formulas defused). Pure: no
// DOM, so Node tests it.

export interface ParsedCsv {
  /** Every record, cells as written (quotes removed). */
  rows: string[][];
  /** The separator found on the first line: `,` or `;` (or a tab). */
  delimiter: string;
  /** The line (1-based) on which each record starts, for messages that name where a problem is. */
  lines: number[];
}

/** Which separator the first record uses: the most frequent of `,` `;` and tab outside quotes. */
export function detectDelimiter(text: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  let best = ',';
  for (const d of [';', '\t']) if (counts[d] > counts[best]) best = d;
  return best;
}

export function parseCsv(input: string, delimiter?: string): ParsedCsv {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const sep = delimiter ?? detectDelimiter(text);
  const rows: string[][] = [];
  const lines: number[] = [];
  for (const record of csvRecords(text, sep)) {
    rows.push(record.cells);
    lines.push(record.line);
  }
  return { rows, delimiter: sep, lines };
}

/**
 * The records of a CSV text one at a time, each with the line it starts on: a reader that keeps
 * only what it takes from each (an import of a million rows) never holds them all.
 */
export function* csvRecords(input: string, delimiter?: string): Generator<{ cells: string[]; line: number }> {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const sep = delimiter ?? detectDelimiter(text);
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let started = false;
  let ended: string[] | null = null;
  const endRow = () => {
    row.push(cell);
    // A blank line (one empty cell) is no record.
    ended = row.length > 1 || row[0] !== '' ? row : null;
    row = [];
    cell = '';
    started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (!started) {
      rowLine = line;
      started = true;
    }
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      // A quoted cell; spaces before the opening quote are dropped.
      cell = '';
      quoted = true;
    } else if (ch === sep) {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      const at = rowLine;
      endRow();
      line++;
      if (ended) yield { cells: ended, line: at };
    } else {
      cell += ch;
    }
  }
  if (started) {
    const at = rowLine;
    endRow();
    if (ended) yield { cells: ended, line: at };
  }
}

/** One cell as RFC 4180 writes it; a leading =, +, - or @ is defused so that a spreadsheet shows it as text. */
export function csvCell(value: string | number | null | undefined): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: (string | number | null | undefined)[][]): string {
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** A file's bytes as text: UTF-8, or Windows-1252 when they are not UTF-8 (older spreadsheet exports). */
export function decodeCsvBytes(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
