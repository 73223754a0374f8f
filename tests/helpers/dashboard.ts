// The dashboard in a real browser: an owner signed in through the real mail, a page whose cookie
// jar holds the session (as the browser keeps it after signing in), and screenshots for people to
// look at. With `const browser = useBrowser();` (helpers/browser.ts):
//
//   const { tenant, session } = await signedInOwner();
//   const page = await openDashboard(browser(), session, `/app/o/${tenant.org.id}/reviews`);
//   try { …; await shot(page, 'reviews'); } finally { await page.context().close(); }
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { axeViolations, screenshotDir } from './browser.ts';
import { createTenant, type Tenant } from './db.ts';
import { mailWorker } from './review-requests.ts';
import { addMember, personEmail, type Session, signIn } from './sessions.ts';

export interface Viewport {
  width: number;
  height: number;
}

export const DESKTOP: Viewport = { width: 1280, height: 900 };
export const PHONE: Viewport = { width: 375, height: 812 };

/**
 * A page of a new browser context whose cookie jar holds the session's cookie for the API's
 * address, opened at `path`. Close it with `page.context().close()`.
 */
export async function openDashboard(
  browser: Browser,
  session: Pick<Session, 'cookie'>,
  path = '/app',
  viewport: Viewport = DESKTOP,
): Promise<Page> {
  const base = inject('apiUrl');
  const context = await browser.newContext({ viewport });
  const eq = session.cookie.indexOf('=');
  await context.addCookies([{
    name: session.cookie.slice(0, eq),
    value: session.cookie.slice(eq + 1),
    url: base,
    httpOnly: true,
    sameSite: 'Lax',
  }]);
  const page = await context.newPage();
  try {
    await page.goto(`${base}${path}`);
  } catch (err) {
    await context.close();
    throw err;
  }
  return page;
}

/**
 * A screen at both widths, once `ready` says it is drawn: nothing wider than the screen, no axe-core
 * violation, and a screenshot of each (`dashboard-<name>-<width>.png`).
 */
export async function lookAtBothWidths(
  browser: Browser,
  session: Pick<Session, 'cookie'>,
  path: string,
  name: string,
  ready: (page: Page) => Promise<unknown>,
) {
  for (const viewport of [PHONE, DESKTOP]) {
    const page = await openDashboard(browser, session, path, viewport);
    try {
      await ready(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `${name}-${viewport.width}`);
    } finally {
      await page.context().close();
    }
  }
}

/** A full-page screenshot, `dashboard-<name>.png` in the screenshots folder; its path. */
export async function shot(page: Page, name: string): Promise<string> {
  const file = path.join(screenshotDir(), `dashboard-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface SignedInOwner {
  tenant: Tenant;
  email: string;
  session: Session;
}

/**
 * A fresh organization and its owner, signed in through the real sign-in mail: a mail worker runs
 * for the organization while the mail is sent.
 */
export async function signedInOwner(name = 'Olga Owner'): Promise<SignedInOwner> {
  const tenant = await createTenant();
  const email = personEmail('owner');
  await addMember(tenant, email, 'owner', name);
  const worker = await mailWorker([tenant.org.id]);
  try {
    return { tenant, email, session: await signIn(email) };
  } finally {
    await worker.stop();
  }
}

/** Runs `fn` on a dashboard page opened as `openDashboard` does, and closes the page's context after. */
export async function onDashboardPage<T>(
  browser: Browser,
  session: Pick<Session, 'cookie'>,
  path: string,
  fn: (page: Page) => Promise<T>,
  viewport: Viewport = DESKTOP,
): Promise<T> {
  const page = await openDashboard(browser, session, path, viewport);
  try {
    return await fn(page);
  } finally {
    await page.context().close();
  }
}
