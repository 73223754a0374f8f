// Starts the API on Deno against the test database, once for the whole run.
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startApi } from '../../scripts/lib/api-server.mjs';
import { freePort } from '../../scripts/lib/postgres.mjs';
import { startDevMail } from '../../scripts/lib/dev-mail.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    /** The development mail capture the API serves at /_dev/mail (SMTP address). */
    devMailSmtpUrl: string;
    /** The API's EMAIL_WEBHOOK_SECRET: signs provider e-mail events in tests. */
    emailWebhookSecret: string;
  }
}

let stop: (() => Promise<void>) | undefined;

/** A whole API key, a webhook secret, or an e-mail address. */
const LEAK = /\brk_[0-9A-Za-z]{38}\b|\bwhsec_[0-9A-Za-z+/=]{8,}|[\w.+-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,}/g;

const EMAIL_WEBHOOK_SECRET = `whsec_${Buffer.from('plaudit test e-mail webhook secret').toString('base64')}`;

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.TEST_API_DATABASE_URL;
  if (!databaseUrl) throw new Error('Run the suite with `npm test`: it prepares the test database');
  const logFile = path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'api.log');
  const out = fs.openSync(logFile, 'a');
  const devMail = await startDevMail();
  const api = await startApi({
    port: await freePort(),
    databaseUrl,
    // Every test comes from 127.0.0.1, the browser tests' pages and files included: the per-client
    // limits (sign-in, anonymous requests, submissions) are tested on servers of their own, so this
    // one's are out of the way of the many files that submit reviews here in the same minute.
    env: {
      PLAUDIT_ENV: 'development',
      DEV_MAIL_URL: devMail.httpUrl,
      EMAIL_WEBHOOK_SECRET,
      SIGN_IN_RATE_LIMIT_PER_MINUTE: '1000',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
      SUBMIT_RATE_LIMIT_PER_MINUTE: '100000',
      MEDIA_DIR: path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'media'),
      MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE: '100000',
    },
    stdio: out,
  });
  stop = api.stop;
  project.provide('apiUrl', api.url);
  project.provide('devMailSmtpUrl', devMail.smtpUrl);
  project.provide('emailWebhookSecret', EMAIL_WEBHOOK_SECRET);
  return async () => {
    await stop?.();
    await devMail.close();
    // Everything the suite made the API do is in its log: not one key, secret or address may be.
    const leaks = fs.readFileSync(logFile, 'utf8').match(LEAK);
    if (leaks) {
      throw new Error(`the API log holds secrets or personal data: ${[...new Set(leaks)].slice(0, 5).join(', ')}`);
    }
  };
}
