// The API and the worker refuse to run through a role that row-level security does not bind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApi } from '../../scripts/lib/api-server.mjs';
import { startWorkerProcess } from '../../scripts/lib/worker-process.mjs';
import { freePort } from '../../scripts/lib/postgres.mjs';

function logFile() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-privileges-')), 'out.log');
  return { file, fd: fs.openSync(file, 'a') };
}

describe('least privilege at start-up', () => {
  it('the API will not start as the owner of the tables (a superuser here)', async () => {
    const log = logFile();
    await expect(startApi({ port: await freePort(), databaseUrl: process.env.TEST_DATABASE_URL, stdio: log.fd }))
      .rejects.toThrow(/exited/);
    expect(fs.readFileSync(log.file, 'utf8')).toMatch(
      /refusing to start: the database role "[^"]+" is a superuser; connect as plaudit_authenticator/,
    );
  });

  it('the worker will not start as the owner either', async () => {
    const log = logFile();
    await expect(startWorkerProcess({ databaseUrl: process.env.TEST_DATABASE_URL, stdio: log.fd }))
      .rejects.toThrow(/exited with code 1 before starting/);
    expect(fs.readFileSync(log.file, 'utf8')).toMatch(/refusing to start: the database role "[^"]+" is a superuser/);
  });
});
