// Compile-time checks of the SDK's types: `tsc -p sdk/tsconfig.typetest.json` (run by
// tests/sdk/types.test.ts) must accept this file, so every @ts-expect-error below must be an error.
import {
  Plaudit,
  type ResponseInfo,
  type Review,
  signTestWebhook,
  verifyWebhook,
  type WebhookEvent,
} from '../../sdk/src/index.ts';

const plaudit = new Plaudit({ apiKey: 'rk_example', baseUrl: 'http://127.0.0.1:54321' });

export async function usage(): Promise<void> {
  // A page when awaited, items when iterated; both typed from the OpenAPI document.
  const page = await plaudit.reviews.list({ min_rating: 4, verification_status: 'verified', limit: 50 });
  const totalPages: number = page.meta.totalPages;
  const first: Review | undefined = page.data[0];
  for await (const review of plaudit.reviews.list({ min_rating: 4 })) {
    const rating: number = review.rating;
    const hidden: boolean = review.is_hidden;
    void [rating, hidden];
  }
  void [totalPages, first];

  // @ts-expect-error a misspelled filter
  plaudit.reviews.list({ min_ratng: 4 });
  // @ts-expect-error a filter of the wrong type
  plaudit.reviews.list({ verification_status: 'approved' });

  await plaudit.reviews.moderate('id', { action: 'hide', reason: 'Spam' });
  // @ts-expect-error a wrong body: there is no "delete" action
  await plaudit.reviews.moderate('id', { action: 'delete', reason: 'Spam' });
  // @ts-expect-error a body without its required field
  await plaudit.reviews.moderate('id', { action: 'hide' });

  await plaudit.reviewForms.create({ name: 'Form', verification_mode: 'email' });
  // Fields with a default (verification_mode, custom_fields, is_active) need not be sent.
  await plaudit.reviewForms.create({ name: 'Form' });
  await plaudit.reviewRequests.create({ email: 'a@example.com', name: 'A', form_id: 'f' });
  // @ts-expect-error an unknown verification mode
  await plaudit.reviewForms.create({ name: 'Form', verification_mode: 'sms' });
  // @ts-expect-error rating is a number
  await plaudit.reviews.submit({ form_id: 'f', rating: '5', content: 'c', reviewer_name: 'n', reviewer_email: 'e' });
  // @ts-expect-error an export format that does not exist
  await plaudit.exports.create({ format: 'xlsx' });

  const key = await plaudit.apiKeys.create({ name: 'CI', scope: 'read' });
  const full: string = key.key;
  await plaudit.apiKeys.rotate(key.id, { expires_in_seconds: 3600 });
  // @ts-expect-error API keys have no "owner" scope
  await plaudit.apiKeys.create({ name: 'CI', scope: 'owner' });
  void full;

  const stream: ReadableStream<Uint8Array> = await plaudit.exports.download('id');
  void stream;

  // Each result's own answer: on the object, or beside the data (also for calls without a body).
  const review = await plaudit.reviews.get('id');
  const requestId: string | null = review.lastResponse.requestId;
  const { data, response } = await plaudit.reviews.get('id').withResponse();
  const sameReview: Review = data;
  const removed: { data: void; response: ResponseInfo } = await plaudit.organization.removeMember('id').withResponse();
  const pageAnswer: ResponseInfo | undefined = (await plaudit.reviews.list()).lastResponse;
  // @ts-expect-error the answer is read-only
  response.status = 200;
  void [requestId, sameReview, removed, pageAnswer];

  await plaudit.organization.updateMember('id', { role: 'admin' });
  // @ts-expect-error members have no "viewer" role
  await plaudit.organization.updateMember('id', { role: 'viewer' });
  await plaudit.reviews.listForKey({ min_rating: 4 }).toArray({ limit: 500 });

  // A test delivery of a typed event; its timestamp may be left out.
  await signTestWebhook({ event: 'webhook.test', data: { webhook_id: 'w', message: 'hi' } }, 'whsec_x');
  // @ts-expect-error not an event the API sends
  await signTestWebhook({ event: 'review.deleted', data: {} }, 'whsec_x');

  const event: WebhookEvent = await verifyWebhook('{}', new Headers(), 'whsec_x');
  // @ts-expect-error not an event the API sends
  if (event.event === 'review.deleted') return;
  if (event.event === 'review.created') {
    const content: string = event.data.content;
    const answers: Record<string, unknown> = event.data.custom_fields;
    void [content, answers];
  } else if (event.event === 'review.moderated') {
    const hidden: boolean = event.data.is_hidden;
    void hidden;
  } else if (event.event === 'export.completed') {
    const rows: number = event.data.row_count;
    const url: string = event.data.download_url;
    void url;
    // @ts-expect-error export events carry no review content
    void event.data.content;
    void rows;
  }
}
