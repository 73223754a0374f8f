// Fills a database with data of every kind, written the way the product writes it: through the SQL
// functions the API, the hosted pages and the worker call, as the roles they run as (plaudit_api
// with the tenant and actor set, plaudit_public, plaudit_worker, plaudit_authenticator), and as the
// admin command line for what only an operator does (organizations, their first key and owner).
// The upgrade test fills a database of the last release with it, then checks that the migrations
// since keep every row: a new table needs a line here (a step of its concern in fill-every-kind/),
// or that test fails on the empty table. A kind the release does not have yet (its table, or its
// column, is not in the catalog) is skipped.
import { fillCatalog } from './fill-every-kind/catalog.ts';
import { type Flavour, readSchema, type Schema, type Sql } from './fill-every-kind/context.ts';
import { fillCdnPurges, fillDeliveries, fillEndpoints } from './fill-every-kind/delivery.ts';
import { fillExports, fillIdempotencyKeys } from './fill-every-kind/exports.ts';
import { fillImports, stageWaitingImport } from './fill-every-kind/imports.ts';
import { fillMedia } from './fill-every-kind/media.ts';
import { fillErasure } from './fill-every-kind/privacy.ts';
import { fillReviewRequests } from './fill-every-kind/review-requests.ts';
import { fillForms, fillOrders, fillProfile, fillReviews, type KeptHead } from './fill-every-kind/reviews.ts';
import { fillSignals } from './fill-every-kind/signals.ts';
import { fillSummaries } from './fill-every-kind/summaries.ts';
import { createOrganization, fillInvitations, fillKeys, fillSessions } from './fill-every-kind/team.ts';

export type { KeptHead };

export interface FilledOrganization {
  id: string;
  /** The head before the organization's later moderation, kept as a customer would keep it. */
  keptHead: KeptHead;
  /** The addresses the organization erased (none where the release has no erasure). */
  erased: string[];
}

/** The organizations, alike but for what a setting decides. */
const FLAVOURS: Flavour[] = [
  { slug: 'acme', mediaModeration: 'auto', redactOnErasure: true, cdnTakesPurges: true },
  { slug: 'globex', mediaModeration: 'manual', redactOnErasure: false, cdnTakesPurges: false },
];

/**
 * Two organizations, each with every kind of row: members, invitations (open, accepted, withdrawn),
 * API keys (rotated, revoked), sign-in challenges and sessions (live, ended), review forms with
 * custom fields and incentives, reviews of every verification path, replies, moderation, a public
 * profile, webhook endpoints with events, deliveries and attempts, CDN purges, e-mails in every
 * state, review requests through their lifecycle with suppressions, reminders and usage, exports
 * with their chunks, idempotency keys, the product catalog with its reviews, order items and
 * requested products, photos and videos with their moderation, helpful votes and reports, imports
 * (done and waiting), an erasure and a summary of the reviews.
 */
export async function fillEveryKind(sql: Sql): Promise<FilledOrganization[]> {
  const schema = await readSchema(sql);
  const organizations = [];
  for (const flavour of FLAVOURS) organizations.push(await fillOrganization(sql, schema, flavour));
  // Left for the worker: its run would take every organization's waiting import, so they come last.
  for (const org of organizations) await stageWaitingImport(org);
  return organizations.map((org) => ({ id: org.id, keptHead: org.keptHead, erased: org.erased }));
}

async function fillOrganization(sql: Sql, schema: Schema, flavour: Flavour) {
  const org = await createOrganization(sql, schema, flavour);
  await fillKeys(org);
  await fillInvitations(org);
  await fillSessions(org);
  const endpoints = await fillEndpoints(org);
  const forms = await fillForms(org);
  await fillOrders(org);
  await fillProfile(org);
  const reviews = await fillReviews(org, forms);
  await fillReviewRequests(org, forms);
  await fillExports(org);
  await fillDeliveries(org, endpoints, reviews.answered.id);
  await fillIdempotencyKeys(org);
  await fillCdnPurges(org);
  // After release 0.2.0, each skipped where the release has not its tables.
  await fillCatalog(org, forms);
  await fillMedia(org, forms, reviews.bought.id);
  await fillSignals(org, reviews);
  await fillImports(org);
  const erased = await fillErasure(org, forms);
  await fillSummaries(org);
  return { ...org, keptHead: reviews.keptHead, erased };
}
