// Fills a database with data of every kind, written the way the product writes it: through the SQL
// functions the API, the hosted pages and the worker call, as the roles they run as (plaudit_api
// with the tenant and actor set, plaudit_public, plaudit_worker, plaudit_authenticator), and as the
// admin command line for what only an operator does (organizations, their first key and owner).
// The upgrade test fills a database of the last release with it, then checks that the migrations
// since keep every row: a new table needs a line here, or that test fails on the empty table.
import { createHash } from 'node:crypto';
import type postgres from 'postgres';

type Sql = postgres.Sql;
type Tx = postgres.TransactionSql;
type Role = 'plaudit_api' | 'plaudit_public' | 'plaudit_worker' | 'plaudit_authenticator';

/** What the service's links start with (PUBLIC_URL). */
const LINK_BASE = 'https://reviews.example';

/** A moderation chain head as someone outside the database keeps it: the entry count and the last hash. */
export interface KeptHead {
  entries: number;
  head: string;
}

export interface FilledOrganization {
  id: string;
  /** The head before the organization's later moderation, kept as a customer would keep it. */
  keptHead: KeptHead;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Throws unless a product call answered what it answers on success: the filler must not half-fill. */
function expectAnswer(what: string, actual: unknown, expected: unknown) {
  if (actual !== expected) {
    throw new Error(`${what}: answered ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`);
  }
}

/**
 * Runs `fn` in a transaction as `role`, with the tenant and the actor set as the API sets them.
 * `fn` uses only `tx`: the client may have a single connection, which the transaction holds.
 */
async function as<T>(
  sql: Sql,
  role: Role,
  fn: (tx: Tx) => Promise<T>,
  { orgId, actor }: { orgId?: string; actor?: string } = {},
): Promise<T> {
  return await sql.begin(async (tx) => {
    if (orgId) await tx`select set_config('plaudit.org_id', ${orgId}, true)`;
    if (actor) await tx`select set_config('plaudit.actor', ${actor}, true)`;
    await tx.unsafe(`set local role ${role}`);
    return await fn(tx);
  }) as T;
}

/** The newest e-mail of `template` to `to`, as the worker would claim it. */
async function newestMail(sql: Sql, template: string, to: string): Promise<{ id: string; data: any }> {
  const [mail] = await sql<{ id: string; data: any }[]>`
    select id, data from plaudit.email_outbox where template = ${template} and lower(to_address) = lower(${to})
    order by created_at desc, id desc limit 1`;
  if (!mail) throw new Error(`no ${template} e-mail to ${to}`);
  return mail;
}

/** The token at the end of a link (`…/r/<token>`, `…#token=<token>`, `…/invitations/<token>`). */
function tokenOf(link: string): string {
  const token = /([0-9A-Za-z_-]{43})$/.exec(link)?.[1];
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/**
 * Two organizations, each with every kind of row: members, invitations (open, accepted, withdrawn),
 * API keys (rotated, revoked), sign-in challenges and sessions (live, ended), review forms with
 * custom fields, reviews of every verification path, replies, moderation, a public profile,
 * webhook endpoints with events, deliveries and attempts, e-mails in every state, review requests
 * through their lifecycle with suppressions, reminders and usage, exports with their chunks, and
 * idempotency keys.
 */
export async function fillEveryKind(sql: Sql): Promise<FilledOrganization[]> {
  return [await fillOrganization(sql, 'acme'), await fillOrganization(sql, 'globex')];
}

async function fillOrganization(sql: Sql, slug: string): Promise<FilledOrganization> {
  const domain = `${slug}.example`;
  const owner = `owner@${domain}`;

  // As the admin command line: the organization, its first admin key and its owner.
  const [org] = await sql<{ id: string }[]>`
    insert into plaudit.organizations (name, slug, website) values (${slug.toUpperCase()}, ${slug}, ${`https://${domain}`})
    returning id`;
  const orgId = org.id;
  const [admin] = await sql<{ id: string; key: string }[]>`
    select id, key from plaudit.issue_api_key(${orgId}, 'Initial admin key', 'admin')`;
  const [ownerMember] = await sql<{ id: string }[]>`
    insert into plaudit.members (org_id, email, name, role) values (${orgId}, ${owner}, 'Olga Owner', 'owner')
    returning id`;
  const keyActor = `api_key:${admin.id}`;
  const tenant = <T>(fn: (tx: Tx) => Promise<T>, actor = keyActor) => as(sql, 'plaudit_api', fn, { orgId, actor });
  const publicly = <T>(fn: (tx: Tx) => Promise<T>) => as(sql, 'plaudit_public', fn);
  const worker = <T>(fn: (tx: Tx) => Promise<T>) => as(sql, 'plaudit_worker', fn);
  const authenticator = <T>(fn: (tx: Tx) => Promise<T>) => as(sql, 'plaudit_authenticator', fn);

  // A request authenticated with the admin key: its last use and its rate-limit window.
  await authenticator((tx) => tx`select * from plaudit.authenticate(${sha256(admin.key)}, 600)`);

  // API keys: one rotated with a grace period, one revoked.
  await tenant(async (tx) => {
    const [reader] = await tx<{ id: string }[]>`select id from plaudit.issue_api_key(${orgId}, 'Widget', 'read')`;
    const [writer] = await tx<{ id: string }[]>`select id from plaudit.issue_api_key(${orgId}, 'Shop', 'write', 120)`;
    const rotated = await tx`select id from plaudit.rotate_api_key(${reader.id}, 3600)`;
    expectAnswer('rotate_api_key', rotated.length, 1);
    await tx`update plaudit.api_keys set revoked_at = now() where id = ${writer.id}`;
  });

  // Invitations, each with its e-mail: one left open, one accepted, one withdrawn.
  const invite = (email: string, role: string) =>
    tenant(async (tx) => {
      const [i] = await tx<{ id: string; token: string }[]>`
        select id, token from plaudit.create_invitation(${orgId}, ${email}, ${role}, ${admin.id})`;
      await tx`select plaudit.queue_invitation_email(${i.id}, ${i.token}, ${LINK_BASE})`;
      return i;
    });
  await invite(`open-invitation@${domain}`, 'member');
  const accepted = await invite(`admin@${domain}`, 'admin');
  const [{ outcome: acceptance }] = await publicly((tx) =>
    tx`select plaudit.accept_invitation(${accepted.token}, 'Adam Admin') as outcome`
  );
  expectAnswer('accept_invitation', acceptance, 'accepted');
  const withdrawn = await invite(`withdrawn@${domain}`, 'member');
  await tenant((tx) => tx`update plaudit.invitations set revoked_at = now() where id = ${withdrawn.id}`);

  // Sign-in: by the mail's link (a live session, used since), then by its code (a session ended).
  const requestSignIn = async () => {
    const [{ outcome }] = await authenticator((tx) =>
      tx`select plaudit.request_sign_in(${owner}, '203.0.113.7', ${LINK_BASE}) as outcome`
    );
    expectAnswer('request_sign_in', outcome, 'sent');
    return (await newestMail(sql, 'sign_in', owner)).data as { link: string; code: string };
  };
  const signIn = async (token: string | null, code: string | null) => {
    const [s] = await authenticator((tx) =>
      tx<{ outcome: string; session_token: string }[]>`
        select * from plaudit.verify_sign_in(${token}, ${token ? null : owner}, ${code}, 'Mozilla/5.0 (upgrade test)')`
    );
    expectAnswer('verify_sign_in', s.outcome, 'signed_in');
    return sha256(s.session_token);
  };
  const live = await signIn(tokenOf((await requestSignIn()).link), null);
  await authenticator((tx) => tx`select * from plaudit.authenticate_session(${live}, ${orgId}, 600)`);
  const ended = await signIn(null, (await requestSignIn()).code);
  await authenticator((tx) => tx`select plaudit.end_session(${ended}, false)`);

  // Webhook endpoints before anything happens, so that every event fans out to deliveries.
  const endpoint = (url: string, events: string[], description: string | null) =>
    tenant(async (tx) => {
      const [e] = await tx<{ id: string }[]>`
        select id from plaudit.create_webhook_endpoint(${orgId}, ${url}, ${tx.array(events)}, ${description})`;
      return e.id;
    });
  const everything = await endpoint(`https://hooks.${domain}/all`, ['*'], 'Everything');
  const reviewsHook = await endpoint(`https://hooks.${domain}/reviews`, ['review.created', 'review.moderated'], null);
  const goneHook = await endpoint(`https://old-hooks.${domain}/reviews`, ['review.created'], 'Retired receiver');
  await tenant((tx) => tx`select * from plaudit.rotate_webhook_secret(${reviewsHook})`);

  // Review forms: one per verification mode, with custom fields; a paused one; a deleted one.
  const customFields = [
    { key: 'product', label: 'Product', type: 'select', options: ['Mug', 'Tee'], required: true },
    { key: 'recommend', label: 'Would you recommend us?', type: 'boolean' },
    { key: 'visits', label: 'Visits', type: 'number' },
    { key: 'headline', label: 'Headline', type: 'text' },
    { key: 'notes', label: 'Anything else', type: 'textarea' },
  ];
  const form = (name: string, mode: string, fields: unknown[] = [], active = true) =>
    tenant(async (tx) => {
      const [f] = await tx<{ id: string }[]>`
        insert into plaudit.review_forms (org_id, name, verification_mode, custom_fields, is_active)
        values (${orgId}, ${name}, ${mode}, ${tx.json(fields as never)}, ${active}) returning id`;
      return f.id;
    });
  const openForm = await form('After purchase', 'none', customFields);
  const emailForm = await form('Confirmed by e-mail', 'email');
  const manualForm = await form('Approved by hand', 'manual');
  const proofForm = await form('Verified buyers', 'purchase_proof');
  await form('Paused', 'none', [], false);
  const deletedForm = await form('Old form', 'none');
  await tenant((tx) => tx`update plaudit.review_forms set deleted_at = now() where id = ${deletedForm}`);

  // Orders for purchase proof, one with the buyer's address.
  await tenant((tx) =>
    tx`select * from plaudit.upsert_orders(${orgId}, ${
      tx.json([
        { order_id: 'A-1001', email: `buyer@${domain}`, purchased_at: '2026-11-20T10:00:00Z' },
        { order_id: 'A-1002' },
      ])
    })`
  );

  // Reviews, through the public submission.
  let submitted = 0;
  const submit = async (
    formId: string,
    reviewer: string,
    { rating = 5, title = null as string | null, fields = null as unknown, orderId = null as string | null } = {},
  ) => {
    submitted += 1;
    const [r] = await publicly((tx) =>
      tx<{ id: string; error_code: string | null; error_message: string | null; verification_status: string }[]>`
        select * from plaudit.submit_review(
          ${`ip:198.51.100.${submitted}`}, 1000, ${formId}, ${rating}, ${title},
          ${`Review number ${submitted} of ${slug}: the tea arrived warm and the mug did not leak.`},
          ${reviewer.split('@')[0]}, ${reviewer}, ${fields === null ? null : tx.json(fields as never)},
          ${orderId}, ${LINK_BASE}, false)`
    );
    if (r.error_code) throw new Error(`submit_review: ${r.error_code} ${r.error_message}`);
    return r;
  };
  const answered = await submit(openForm, `ann@${domain}`, {
    title: 'Lovely mug',
    fields: { product: 'Mug', recommend: true, visits: 3, headline: ' Great ', notes: 'Fast shipping' },
  });
  const moderated = await submit(openForm, `bob@${domain}`, { rating: 2, fields: { product: 'Tee' } });
  await submit(emailForm, `cleo@${domain}`, { rating: 4 }); // verified below, by its e-mailed link
  await submit(emailForm, `dan@${domain}`, { rating: 3 }); // stays pending, its token unused
  const boughtVerified = await submit(proofForm, `buyer@${domain}`, { orderId: 'A-1001' });
  expectAnswer('submit_review with a matching order', boughtVerified.verification_status, 'verified');
  const laterProof = await submit(proofForm, `eve@${domain}`, { rating: 4 });
  const approved = await submit(manualForm, `fay@${domain}`, { rating: 5 });
  const rejected = await submit(manualForm, `gus@${domain}`, { rating: 1 });

  const verifyMail = await newestMail(sql, 'review_verification', `cleo@${domain}`);
  const [verified] = await publicly((tx) => tx`select * from plaudit.verify_review_by_token(${verifyMail.data.token})`);
  expectAnswer('verify_review_by_token', verified.outcome, 'verified');
  await tenant(async (tx) => {
    await tx`select id from plaudit.verify_review_by_order(${laterProof.id}, 'A-1002', ${admin.id})`;
    await tx`select id from plaudit.approve_review(${approved.id}, 'Receipt checked', ${admin.id})`;
    await tx`select id from plaudit.reject_review(${rejected.id}, 'Not a customer', ${admin.id})`;
  });

  // Moderation, by a key and by a signed-in member; the head as it stands is kept, then more follows.
  const moderate = (reviewId: string, action: string, reason: string | null, actor: string) =>
    tenant((tx) => tx`select id from plaudit.moderate_review(${reviewId}, ${action}, ${reason}, ${actor})`, actor);
  await moderate(moderated.id, 'hide', 'Off topic', keyActor);
  await moderate(moderated.id, 'unhide', null, `member:${ownerMember.id}`);
  const [{ head: keptHead }] = await sql<{ head: KeptHead }[]>`select plaudit.moderation_chain_head(${orgId}) as head`;

  // Replies: one written and edited, one written and withdrawn.
  await tenant(async (tx) => {
    await tx`select * from plaudit.reply_to_review(${answered.id}, 'Thank you!', ${keyActor})`;
    await tx`select * from plaudit.reply_to_review(${answered.id}, 'Thank you, Ann!', ${keyActor})`;
    await tx`select * from plaudit.reply_to_review(${approved.id}, 'Glad you liked it.', ${keyActor})`;
    await tx`select plaudit.withdraw_review_reply(${approved.id}, ${keyActor})`;
  });
  await moderate(moderated.id, 'hide', 'Shares a phone number', keyActor);

  // The public profile and its widget.
  await tenant((tx) =>
    tx`insert into plaudit.public_profiles ${
      tx({
        org_id: orgId,
        display_name: `${slug} tea`,
        description: 'Tea and mugs since 1999.',
        website: `https://${domain}`,
        logo_url: `https://${domain}/logo.png`,
        embed_layout: 'grid',
        embed_theme: 'dark',
        embed_max_reviews: 6,
        embed_min_rating: 3,
      })
    } on conflict (org_id) do nothing`
  );

  // Review requests: settings with reminders; a suppressed address; requests that end up completed
  // (by the review it asked for), clicked and reminded, unsubscribed, failed, bounced, and waiting.
  await tenant((tx) =>
    tx`insert into plaudit.review_request_settings ${
      tx({ org_id: orgId, daily_quota: 500, reminders_enabled: true, reminder_delay_days: 3, reminder_max: 2 })
    }`
  );
  await tenant((tx) =>
    tx`insert into plaudit.email_suppressions (org_id, email, reason) values (${orgId}, ${`blocked@${domain}`}, 'manual')`
  );
  const requestRows = [
    { email: `invitee@${domain}`, name: 'Ivy', form_id: openForm, external_id: 'order-7' },
    { email: `clicker@${domain}`, name: 'Carl', form_id: emailForm, order_id: 'A-1002', locale: 'de' },
    { email: `leaver@${domain}`, name: 'Lea', form_id: openForm },
    { email: `blocked@${domain}`, name: 'Ben', form_id: openForm },
    { email: `bouncer@${domain}`, name: 'Bea', form_id: openForm },
    { email: `later@${domain}`, name: 'Lou', form_id: openForm, send_at: '2099-01-01T09:00:00Z' },
  ].map((row, index) => ({ index, ...row }));
  const requests = await tenant((tx) =>
    tx<{ idx: number; id: string | null; error: string | null }[]>`
      select idx, id, error from plaudit.create_review_requests(${tx.json(requestRows as never)}, ${LINK_BASE})`
  );
  const refused = requests.filter((r) => r.error !== null);
  if (refused.length > 0) throw new Error(`create_review_requests: ${JSON.stringify(refused)}`);
  const requestToken = async (email: string) =>
    tokenOf((await newestMail(sql, 'review_request', email)).data.landing_url);

  const inviteeToken = await requestToken(`invitee@${domain}`);
  const [invited] = await publicly((tx) =>
    tx<{ error_code: string | null; verification_status: string }[]>`
      select * from plaudit.submit_requested_review(
        ${inviteeToken}, 'ip:198.51.100.200', 1000, 5, 'Asked and answered',
        'They asked me for a review and here it is.', 'Ivy', ${`invitee@${domain}`}, ${
      tx.json({ product: 'Tee' })
    }, null, ${LINK_BASE}, false)`
  );
  expectAnswer('submit_requested_review', invited.verification_status, 'verified');
  const clickToken = await requestToken(`clicker@${domain}`);
  const leaverToken = await requestToken(`leaver@${domain}`);
  const [{ outcome: unsubscribed }] = await publicly((tx) =>
    tx`select plaudit.unsubscribe_review_request(${leaverToken}) as outcome`
  );
  expectAnswer('unsubscribe_review_request', unsubscribed, 'unsubscribed');

  // The worker sends what is due: verification and invitation mails fail for now (to be retried),
  // the rest goes.
  const claimed = await worker((tx) =>
    tx<{ id: string; claim_token: string; template: string; to_address: string }[]>`
      select id, claim_token, template, to_address from plaudit.claim_emails(100, 60, array[${orgId}::uuid])`
  );
  for (const mail of claimed) {
    const sent = mail.template !== 'review_verification' && mail.template !== 'team_invitation';
    await worker((tx) =>
      tx`select plaudit.record_email_result(${mail.id}, ${mail.claim_token}, ${sent},
           ${sent ? `provider-${mail.id}` : null}, ${sent ? null : 'connect ECONNREFUSED'}, ${sent ? null : 60000})`
    );
  }
  const providerEvent = async (email: string, type: string) => {
    const mail = await newestMail(sql, 'review_request', email);
    await publicly((tx) =>
      tx`select plaudit.record_email_provider_event(${`provider-${mail.id}`}, ${type}, ${`evt-${type}-${mail.id}`},
           now(), ${tx.json({ provider: 'upgrade test' })})`
    );
  };
  await providerEvent(`clicker@${domain}`, 'delivered');
  await providerEvent(`bouncer@${domain}`, 'bounced');
  await publicly(async (tx) => {
    await tx`select plaudit.track_review_request(${clickToken}, 'opened')`;
    await tx`select plaudit.track_review_request(${clickToken}, 'clicked')`;
  });
  // The worker's reminder run, its clock four days on (plaudit.run_review_request_maintenance uses now()).
  const [{ reminders }] = await sql`
    select plaudit.queue_due_reminders(now() + interval '4 days', 1000, array[${orgId}::uuid]) as reminders`;
  expectAnswer('queue_due_reminders', reminders, 1);

  // Exports, made after the moderation so that they carry its head; the worker generates them.
  await tenant((tx) =>
    tx`insert into plaudit.exports (org_id, format, filters, created_by_key_id, public_url) values
         (${orgId}, 'csv', '{}', ${admin.id}, ${LINK_BASE}),
         (${orgId}, 'json', ${tx.json({ include_hidden: true, rating: 5 })}, ${admin.id}, ${LINK_BASE})`
  );
  for (;;) {
    const [{ remaining }] = await worker((tx) => tx`select plaudit.run_exports(2000) as remaining`);
    if (remaining === 0) break;
  }

  // Webhook deliveries: the worker claims what every event fanned out; the retired receiver answers
  // 410 (and is disabled); the reviews receiver takes the others, but slowly fails the last one (its
  // endpoint is left failing and slow, the delivery waiting for its retry); the rest succeed.
  const deliveries = await worker((tx) =>
    tx<{ id: string; claim_token: string; endpoint_id: string }[]>`
      select id, claim_token, endpoint_id from plaudit.claim_webhook_deliveries(500, 60, 100, array[${orgId}::uuid])`
  );
  const retried = deliveries.filter((d) => d.endpoint_id === reviewsHook).at(-1)?.id;
  for (const d of deliveries) {
    const outcome = d.endpoint_id === goneHook ? 'gone' : d.id === retried ? 'retry' : 'succeeded';
    const status = { gone: 410, retry: 500, succeeded: 200 }[outcome];
    await worker((tx) =>
      tx`select plaudit.record_webhook_attempt(${d.id}, ${d.claim_token}, ${status}, ${outcome === 'retry' ? 1500 : 40},
           ${outcome === 'retry' ? 'HTTP 500' : null}, ${`{"status":${status}}`}, ${outcome},
           ${outcome === 'retry' ? 30000 : null}, 432000, 1000)`
    );
  }
  if (!deliveries.some((d) => d.endpoint_id === everything)) throw new Error('no delivery was fanned out');
  // The API's "send a test event".
  await tenant(async (tx) => {
    const [test] = await tx<{ id: string; claim_token: string }[]>`
      select id, claim_token from plaudit.create_test_delivery(${everything}, 'review.created', ${
      tx.json({ id: answered.id, rating: 5 })
    })`;
    await tx`select plaudit.record_test_delivery(${test.id}, ${test.claim_token}, 204, 35, null, '', true)`;
  });

  // An idempotent call, its answer stored as the idempotency middleware stores it.
  await tenant(async (tx) => {
    const route = 'POST /api/v1/organizations/:orgId/review-requests';
    await tx`insert into plaudit.idempotency_keys (org_id, key, route, request_hash)
             values (${orgId}, 'import-2026-11-25', ${route}, ${sha256(`${route}\n{"requests":[]}`)})`;
    await tx`update plaudit.idempotency_keys set status_code = 201, response = '{"data":[]}'
             where org_id = ${orgId} and key = 'import-2026-11-25'`;
  });

  // The product catalog, synced as the API syncs it: a group of variants, one archived. The catalog
  // came after release 0.2.0: a database of that release has no table for it, and the upgrade
  // test fills it only from the first release that holds it.
  await tenant(async (tx) => {
    const [{ catalog }] = await tx`select to_regclass('plaudit.products') is not null as catalog`;
    if (!catalog) return;
    const outcomes = await tx<{ outcome: string | null }[]>`select outcome from plaudit.upsert_products(${
      tx.json([
        { index: 0, external_id: 'MUG-S', name: 'Mug, small', gtin: '4006381333931', group: 'mug', brand: 'Acme' },
        { index: 1, external_id: 'MUG-L', name: 'Mug, large', sku: 'MUG-L-01', group: 'mug' },
        { index: 2, external_id: 'TEE-OLD', name: 'Old tee', url: `https://${domain}/tee`, archived: true },
      ])
    })`;
    expectAnswer('upsert_products', outcomes.map((o) => o.outcome).join(), 'created,created,created');
  });

  // A review request naming two products, one reviewed through its page. Came after the catalog.
  const [{ named }] = await tenant((tx) =>
    tx`select to_regclass('plaudit.review_request_products') is not null as named`
  );
  if (named) {
    const [asked] = await tenant((tx) =>
      tx<{ id: string | null; error: string | null }[]>`
        select id, error from plaudit.create_review_requests(${
        tx.json([{
          index: 0,
          email: `shopper@${domain}`,
          name: 'Sam',
          form_id: openForm,
          products: ['MUG-S', 'MUG-L'],
        }])
      }, ${LINK_BASE})`
    );
    expectAnswer('create_review_requests with products', asked.error, null);
    const shopperToken = tokenOf((await newestMail(sql, 'review_request', `shopper@${domain}`)).data.landing_url);
    const [shopped] = await publicly((tx) =>
      tx<{ error_code: string | null; verification_status: string }[]>`
        select * from plaudit.submit_requested_review(
          ${shopperToken},
          'ip:198.51.100.201', 1000, 4, null, 'The small mug is just right.', 'Sam', ${`shopper@${domain}`},
          ${tx.json({ product: 'Mug' })}, null, ${LINK_BASE}, false, 'MUG-S')`
    );
    expectAnswer('submit_requested_review of a product', shopped.verification_status, 'verified');
  }

  // An order with items (a product of the catalog and one it does not know yet), loaded as the API
  // loads it. Items came after release 0.2.0, like the catalog.
  await tenant(async (tx) => {
    const [{ items }] = await tx`select to_regclass('plaudit.order_items') is not null as items`;
    if (!items) return;
    await tx`select * from plaudit.upsert_orders(${orgId}, ${
      tx.json([{
        order_id: 'A-1003',
        email: `buyer@${domain}`,
        items: [{ product_external_id: 'MUG-S', quantity: 2 }, { product_external_id: 'GIFT-CARD', quantity: 1 }],
      }])
    })`;
  });

  // A review with a photo, sent by its reviewer with the upload token of the submission. Media came
  // after release 0.2.0, like the catalog.
  const [{ media }] = await tenant((tx) => tx`select to_regclass('plaudit.review_media') is not null as media`);
  if (media) {
    const token = sha256(`upload token of ${slug}`);
    await publicly(async (tx) => {
      const [sent] = await tx<{ id: string; expires: Date | null }[]>`
        select s.id, plaudit.issue_media_upload_token(s.id, ${token}) as expires
          from plaudit.submit_review(
            'ip:198.51.100.250', 1000, ${openForm}, 5, null, 'With a photo of the mug.', 'Pia', ${`pia@${domain}`},
            ${tx.json({ product: 'Mug' })}, null, ${LINK_BASE}, false) s`;
      expectAnswer('issue_media_upload_token', sent.expires !== null, true);
      const key = `${orgId}/${sent.id}/photo`;
      const [added] = await tx<{ refusal: string | null }[]>`
        select refusal from plaudit.add_review_media(
          ${sent.id}, ${token}, gen_random_uuid(), 'image', 'image/jpeg', ${`${key}.jpg`}, ${`${key}-thumb.jpg`},
          ${`${LINK_BASE}/api/v1/public/media/${key}.jpg`}, ${`${LINK_BASE}/api/v1/public/media/${key}-thumb.jpg`},
          2048, 1536, 412345, ${sha256(`photo of ${slug}`)})`;
      expectAnswer('add_review_media', added.refusal, null);
    });
  }

  return { id: orgId, keptHead: { entries: Number(keptHead.entries), head: keptHead.head } };
}
