// Every operation of the OpenAPI document that an API key may call has an SDK method: the map
// below names it, and this test checks the map against the document (no operation left out, none
// made up) and against the client (each method exists and sends the operation's method and path).
// A route added to the API without an SDK method fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Plaudit } from '../../sdk/src/index.ts';

const root = path.resolve(__dirname, '..', '..');
const document = JSON.parse(fs.readFileSync(path.join(root, 'sdk/openapi.json'), 'utf8'));

const ID = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

/** operationId → the SDK method that calls it, and arguments to call it with. */
const METHODS: Record<string, [method: string, ...args: unknown[]]> = {
  'me.get': ['me'],
  'organization.get': ['organization.get'],
  'organization.update': ['organization.update', { name: 'x' }],
  'members.list': ['organization.members'],
  'members.update': ['organization.updateMember', ID, { role: 'admin' }],
  'members.remove': ['organization.removeMember', ID],
  'invitations.list': ['organization.invitations'],
  'invitations.create': ['organization.invite', { email: 'a@example.com', role: 'member' }],
  'invitations.withdraw': ['organization.withdrawInvitation', ID],
  'imports.create': ['imports.create', 'title,body\n'],
  'imports.list': ['imports.list'],
  'imports.get': ['imports.get', ID],
  'privacy.erase': ['privacy.erase', { email: 'a@example.com' }],
  'privacy.data': ['privacy.data', 'a@example.com'],
  'apiKeys.create': ['apiKeys.create', { name: 'CI', scope: 'read' }],
  'apiKeys.list': ['apiKeys.list'],
  'apiKeys.revoke': ['apiKeys.revoke', ID],
  'apiKeys.rotate': ['apiKeys.rotate', ID],
  'webhooks.create': ['webhooks.create', { url: 'https://example.com', events: ['*'] }],
  'webhooks.list': ['webhooks.list'],
  'webhooks.get': ['webhooks.get', ID],
  'webhooks.update': ['webhooks.update', ID, { enabled: false }],
  'webhooks.delete': ['webhooks.delete', ID],
  'webhooks.test': ['webhooks.test', ID],
  'webhooks.rotateSecret': ['webhooks.rotateSecret', ID],
  'webhookDeliveries.list': ['webhooks.deliveries', ID],
  'webhookDeliveries.get': ['webhooks.delivery', ID, OTHER],
  'webhookDeliveries.redeliver': ['webhooks.redeliver', ID, OTHER],
  'exports.create': ['exports.create', { format: 'csv' }],
  'exports.list': ['exports.list'],
  'exports.get': ['exports.get', ID],
  'exports.download': ['exports.download', ID],
  'reviewForms.create': ['reviewForms.create', { name: 'Form' }],
  'reviewForms.list': ['reviewForms.list'],
  'reviewForms.get': ['reviewForms.get', ID],
  'reviewForms.update': ['reviewForms.update', ID, { is_active: false }],
  'reviewForms.delete': ['reviewForms.delete', ID],
  'products.create': ['products.create', { external_id: 'MUG-1', name: 'Mug' }],
  'products.list': ['products.list'],
  'products.get': ['products.get', ID],
  'products.update': ['products.update', ID, { archived: true }],
  'products.delete': ['products.delete', ID],
  'products.upsert': ['products.upsert', [{ external_id: 'MUG-1', name: 'Mug' }]],
  'reviews.listForKey': ['reviews.listForKey'],
  'reviews.list': ['reviews.list'],
  'reviews.get': ['reviews.get', ID],
  'reviews.moderate': ['reviews.moderate', ID, { action: 'hide', reason: 'Spam' }],
  'reviews.reply': ['reviews.reply', ID, { content: 'Thanks' }],
  'reviews.withdrawReply': ['reviews.withdrawReply', ID],
  'reviews.moderationHistory': ['reviews.moderationHistory', ID],
  'reviews.statements': ['reviews.statements', ID],
  'moderationChain.check': ['reviews.moderationChain'],
  'reviewRequests.stats': ['reviewRequests.stats'],
  'reviewRequestSettings.get': ['reviewRequests.settings'],
  'reviewRequestSettings.update': ['reviewRequests.updateSettings', { daily_quota: 10 }],
  'reviewRequests.create': ['reviewRequests.create', { email: 'a@example.com', name: 'A', form_id: ID }],
  'reviewRequests.list': ['reviewRequests.list'],
  'reviewRequests.bulk': ['reviewRequests.bulk', []],
  'reviewRequests.get': ['reviewRequests.get', ID],
  'suppressions.list': ['reviewRequests.suppressions'],
  'suppressions.create': ['reviewRequests.suppress', 'a@example.com'],
  'suppressions.delete': ['reviewRequests.unsuppress', ID],
  'verification.verify': ['verification.verify', { review_id: ID, order_id: 'A-1' }],
  'verification.approve': ['verification.approve', { review_id: ID }],
  'verification.reject': ['verification.reject', { review_id: ID }],
  'orders.load': ['verification.loadOrders', { orders: [] }],
  'reports.list': ['reports.list'],
  'reports.resolve': ['reports.resolve', ID, 'Kept'],
  'questions.list': ['questions.list'],
  'questions.get': ['questions.get', ID],
  'questions.answer': ['questions.answer', ID, 'Yes'],
  'questions.moderate': ['questions.moderate', ID, { action: 'hide', reason: 'Spam' }],
  'questions.moderateAnswer': ['questions.moderateAnswer', ID, { action: 'hide', reason: 'Spam' }],
  'connections.create': ['connections.create', { platform: 'webhook' }],
  'connections.list': ['connections.list'],
  'connections.get': ['connections.get', ID],
  'connections.update': ['connections.update', ID, { name: 'Shop' }],
  'connections.delete': ['connections.delete', ID],
  'connections.test': ['connections.test', ID],
  'connections.writeBacks': ['connections.writeBacks', ID],
  'orders.list': ['orders.list'],
  'orders.get': ['orders.get', '#1001'],
  'reviewRequestAutomation.get': ['automation.get'],
  'reviewRequestAutomation.update': ['automation.update', { enabled: true }],
  'appeals.list': ['appeals.list'],
  'appeals.get': ['appeals.get', ID],
  'appeals.decide': ['appeals.decide', ID, { status: 'upheld', resolution: 'Fair' }],
  'holds.list': ['holds.list'],
  'holds.get': ['holds.get', ID],
  'holds.release': ['holds.release', ID],
  'reviews.held': ['holds.held', ID],
  'holds.settings.get': ['holds.settings'],
  'holds.settings.update': ['holds.updateSettings', { min_reviews: 20 }],
  'transparency.dsa': ['transparency.dsa', 2025],
  'transparency.dsaCsv': ['transparency.dsaCsv', 2025],
  'publicProfile.get': ['publicProfile.get'],
  'publicProfile.update': ['publicProfile.update', { description: 'x' }],
  // Public operations the SDK offers too (no key is sent).
  'reviews.submit': ['reviews.submit', {
    form_id: ID,
    rating: 5,
    content: 'c',
    reviewer_name: 'n',
    reviewer_email: 'e',
  }],
  'reviews.uploadMedia': ['reviews.uploadMedia', ID, new Uint8Array([0xff, 0xd8, 0xff])],
  'reviews.moderateMedia': ['reviews.moderateMedia', ID, OTHER, { action: 'hide', reason: 'A face' }],
  'public.embed': ['public.embed', 'acme'],
  'public.reviews': ['public.reviews', 'acme'],
  'public.profile': ['public.profile', 'acme'],
  'public.profileReviews': ['public.profileReviews', 'acme'],
  'public.product': ['public.product', 'acme', 'MUG-1'],
  'public.productReviews': ['public.productReviews', 'acme', 'MUG-1'],
  'public.productRatings': ['public.productRatings', 'acme', ['MUG-1', 'MUG-2']],
  'public.productJsonLd': ['public.productJsonLd', 'acme', 'MUG-1'],
  'public.verify': ['public.verify', 'tok'],
  'public.voteHelpful': ['public.voteHelpful', 'acme', ID],
  'public.businessQuestions': ['public.questions', 'acme'],
  'public.productQuestions': ['public.productQuestions', 'acme', 'MUG-1'],
  'public.askQuestion': ['public.ask', 'acme', { question: 'Is it dishwasher safe?', name: 'A', email: 'a@b.co' }],
  'public.voteAnswerHelpful': ['public.voteAnswerHelpful', 'acme', ID, OTHER],
  'public.reportReview': ['public.report', 'acme', ID, { reason: 'spam' }],
  'public.transparency': ['public.transparency', 'acme'],
  'public.summary': ['public.summary', 'acme'],
  'public.productSummary': ['public.productSummary', 'acme', 'MUG-1'],
  'public.fragment': ['fragments.get', 'acme'],
  'public.productFragment': ['fragments.get', 'acme', { product: 'MUG-1' }],
};

/** Operations without a key that are not the SDK's business, and why. */
const NOT_IN_SDK: Record<string, string> = {
  'health.get': 'a probe for load balancers',
  'auth.options': "the dashboard's sign-in, by member session",
  'auth.signIn': "the dashboard's sign-in, by member session",
  'auth.verify': "the dashboard's sign-in, by member session",
  'auth.session': "the dashboard's sign-in, by member session",
  'auth.signOut': "the dashboard's sign-in, by member session",
  'auth.signOutEverywhere': "the dashboard's sign-in, by member session",
  'auth.signUp': "the dashboard's sign-in, by member session",
  'emailEvents.receive': "the e-mail provider's webhook into the service",
  'connections.receiveEvent': "a shop platform's signed webhook into the service",
  'public.openVerificationLink': 'the link a reviewer opens in a browser: a redirect to an HTML page',
  'public.mediaFile': "a review's photo or video, fetched by the `url` its media item names",
  'public.googleProductFeed': "an XML feed that Google Merchant Center fetches by its address, not a program's call",
  'public.metaProductReviewFeed': "a CSV feed that Meta fetches by its address, not a program's call",
  'public.reviewFeedsReport': "the feeds' diagnostic for whoever sets them up, read beside the feeds",
  'public.confirmQuestion': "the asker's e-mailed link, confirmed on its hosted page",
  'public.answerQuestion': "a verified buyer's e-mailed link, answered on its hosted page",
  'mcp.message': "the Model Context Protocol's endpoint, which MCP clients speak (docs/agents.md)",
};

interface Operation {
  id: string;
  method: string;
  path: string;
  byKey: boolean;
}

const operations: Operation[] = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap((
  [p, item],
) =>
  Object.entries(item)
    .filter(([, op]) => op && typeof op === 'object' && op.operationId)
    .map(([method, op]) => ({
      id: op.operationId as string,
      method: method.toUpperCase(),
      path: p,
      byKey: ((op.security ?? document.security ?? []) as Record<string, unknown>[]).some((s) => 'ApiKey' in s),
    }))
);

/** A client whose fetch records each request and answers an empty page (a fine body for every call). */
function recordingClient() {
  const seen: { method: string; path: string; auth: string | null }[] = [];
  const plaudit = new Plaudit({
    apiKey: 'rk_test',
    baseUrl: 'http://sdk.test',
    organizationId: ID,
    maxRetries: 0,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({ method: init!.method!, path: new URL(String(input)).pathname, auth: headers.get('authorization') });
      return Response.json({ data: [], meta: { total: 0, page: 1, limit: 20, totalPages: 0 } });
    },
  });
  return { plaudit, seen };
}

function methodOf(plaudit: Plaudit, name: string): ((...args: unknown[]) => unknown) | undefined {
  const parts = name.split('.');
  const owner = parts.slice(0, -1).reduce<any>((o, p) => o?.[p], plaudit);
  const fn = owner?.[parts.at(-1)!];
  return typeof fn === 'function' ? fn.bind(owner) : undefined;
}

const pattern = (template: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);

describe('the SDK covers the OpenAPI document', () => {
  it('names a method for every operation an API key may call', () => {
    expect(operations.length).toBeGreaterThan(50);
    const missing = operations.filter((o) => o.byKey && !METHODS[o.id]).map((o) => `${o.id} (${o.method} ${o.path})`);
    expect(missing, 'operations without an SDK method: add one and name it in METHODS').toEqual([]);
  });

  it('accounts for every other operation: an SDK method or a reason not to have one', () => {
    const unaccounted = operations.filter((o) => !METHODS[o.id] && !NOT_IN_SDK[o.id]).map((o) => o.id);
    expect(unaccounted).toEqual([]);
    for (const id of Object.keys(NOT_IN_SDK)) {
      expect(operations.find((o) => o.id === id)?.byKey, `${id} is a key's operation`).toBe(false);
    }
  });

  it('names only operations the document has', () => {
    const ids = new Set(operations.map((o) => o.id));
    const unknown = [...Object.keys(METHODS), ...Object.keys(NOT_IN_SDK)].filter((id) => !ids.has(id));
    expect(unknown).toEqual([]);
  });

  it("each named method exists and sends its operation's method and path, with the key unless public", async () => {
    for (const [id, [name, ...args]] of Object.entries(METHODS)) {
      const op = operations.find((o) => o.id === id)!;
      const { plaudit, seen } = recordingClient();
      const fn = methodOf(plaudit, name);
      expect(fn, `plaudit.${name} (for ${id})`).toBeTypeOf('function');
      await fn!(...args);
      expect(seen, `plaudit.${name} calls ${id} once`).toHaveLength(1);
      expect(seen[0].method, `plaudit.${name}`).toBe(op.method);
      expect(seen[0].path, `plaudit.${name}`).toMatch(pattern(op.path));
      expect(seen[0].auth, `plaudit.${name} sends the key`).toBe(op.byKey ? 'Bearer rk_test' : null);
    }
  });
});
