// The events a webhook endpoint receives: `{ event, timestamp, data }` (docs/delivery.md).

export interface ModerationChainHead {
  entries: number;
  head: string | null;
}

export interface WebhookEventData {
  'review.created': {
    id: string;
    form_id: string;
    rating: number;
    title: string | null;
    content: string;
    reviewer_name: string;
    verification_status: 'unverified' | 'pending' | 'verified' | 'rejected';
    /** Answers to the form's custom fields, keyed by field key. */
    custom_fields: Record<string, unknown>;
    created_at: string;
  };
  'review.moderated': {
    id: string;
    form_id: string;
    action: 'hide' | 'unhide';
    is_hidden: boolean;
    reason: string | null;
    actor: string;
    moderated_at: string;
    moderation_chain: ModerationChainHead;
  };
  'review.verified': {
    id: string;
    form_id: string;
    verification_status: 'unverified' | 'pending' | 'verified' | 'rejected';
    previous_status: 'unverified' | 'pending' | 'verified' | 'rejected';
    method: string | null;
    reason: string | null;
    actor: string;
    verified_at: string;
  };
  'export.completed': {
    id: string;
    format: 'csv' | 'json';
    status: 'completed';
    filters: Record<string, unknown>;
    row_count: number;
    created_at: string;
    completed_at: string;
    expires_at: string | null;
    /** Where to download the file (`exports.download(id)` does it with the key). */
    download_url: string;
  };
  /** Sent by `webhooks.test()`. */
  'webhook.test': { webhook_id: string; message: string };
}

export type WebhookEventType = keyof WebhookEventData;

/** A verified delivery: narrow on `event` to get the type of `data`. */
export type WebhookEvent = {
  [E in WebhookEventType]: { event: E; timestamp: string; data: WebhookEventData[E] };
}[WebhookEventType];
