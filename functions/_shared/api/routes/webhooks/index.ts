// Webhooks: endpoints (endpoints.ts) and their deliveries (deliveries.ts).
import { router } from '../define.ts';
import { webhookDeliveries } from './deliveries.ts';
import { webhookEndpoints } from './endpoints.ts';

export { EVENT_TYPES, setWebhookResolver } from './shared.ts';

export const webhooks = router()
  .route('/', webhookEndpoints)
  .route('/', webhookDeliveries);
