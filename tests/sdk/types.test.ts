// The SDK's types: its sources compile under the web platform's types alone (no Node), and the
// checks of types.test-d.ts hold (wrong bodies and misspelled filters do not compile).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');

function tsc(project: string) {
  const r = spawnSync(process.execPath, [
    path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '--noEmit',
    '-p',
    project,
  ], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('SDK types', () => {
  it('the sources and the type checks compile', { timeout: 120_000 }, () => {
    const r = tsc('sdk/tsconfig.typetest.json');
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  it('an expected error that is not an error fails the check', { timeout: 120_000 }, async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-types-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'wrong.ts'),
        `import { Plaudit } from ${JSON.stringify(path.join(root, 'sdk/src/index.ts'))};\n` +
          `// @ts-expect-error a correct filter is no error\n` +
          `new Plaudit().reviews.list({ min_rating: 4 });\n`,
      );
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({ extends: path.join(root, 'sdk/tsconfig.json'), include: ['wrong.ts'] }),
      );
      const r = tsc(path.join(dir, 'tsconfig.json'));
      expect(r.status).not.toBe(0);
      expect(r.output).toContain("Unused '@ts-expect-error' directive");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
