export { ApiPromise, type WithLastResponse, type WithResponse } from './api-promise.ts';
export { Plaudit, type PlauditOptions } from './client.ts';
export {
  APIConnectionError,
  AuthenticationError,
  ConflictError,
  type FieldError,
  NotFoundError,
  PermissionError,
  PlauditError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from './errors.ts';
export { DEFAULT_BASE_URL, type RateLimit, type RequestOptions, type ResponseInfo } from './http.ts';
export { type Page, PageRequest, TO_ARRAY_LIMIT, type ToArrayOptions } from './pagination.ts';
export type { WaitOptions } from './resources/exports.ts';
export type { FragmentOptions } from './resources/fragments.ts';
export type { MediaFile } from './media-file.ts';
export type { RotateInput } from './resources/api-keys.ts';
export {
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  WebhookVerificationError,
} from './verify-webhook.ts';
export { type SignedTestWebhook, signTestWebhook, type SignTestWebhookOptions } from './sign-test-webhook.ts';
export type { TestWebhookEvent, WebhookEvent, WebhookEventData, WebhookEventType } from './webhook-events.ts';
export type * from './types.ts';
