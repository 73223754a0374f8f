// What the row-streaming scenarios (export, google-feed) measure beside the product path: COPY of
// the same rows through psql, and a process's resident memory while a file streams.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/** A process's resident set size in MB (NaN once it is gone). */
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Runs `COPY (query) TO STDOUT` as CSV with a header through psql into a byte counter; answers seconds and bytes. */
export function copyThroughPsql(url, query) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('psql', [
      url,
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      `copy (${query}) to stdout with (format csv, header)`,
    ], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let bytes = 0;
    let err = '';
    child.stdout.on('data', (c) => (bytes += c.length));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on(
      'close',
      (
        code,
      ) => (code === 0
        ? resolve({ seconds: (performance.now() - started) / 1000, bytes })
        : reject(new Error(`psql COPY failed: ${err.trim()}`))),
    );
  });
}

/**
 * `COPY … FROM STDIN` of `csv` into a scratch table made by `createTable` (one psql session, so that
 * a temporary table lives until the COPY is done): the fastest PostgreSQL takes rows in. Answers seconds.
 */
export function copyIntoTable(url, createTable, csv, { header = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const table = /create\s+(?:temp\s+)?table\s+(\w+)/i.exec(createTable)?.[1];
    const child = spawn('psql', [
      url,
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      createTable,
      '-c',
      `\\copy ${table} from pstdin with (format csv${header ? ', header' : ''})`,
    ], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on(
      'close',
      (code) =>
        code === 0
          ? resolve((performance.now() - started) / 1000)
          : reject(new Error(`psql COPY failed: ${err.trim()}`)),
    );
    child.stdin.end(csv);
  });
}
