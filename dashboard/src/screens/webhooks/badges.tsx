// An endpoint's health and a delivery's status as badges whose words do not rely on colour.
import type { Schemas } from '../../api.ts';
import { Badge } from '../../ui/components.tsx';
import { DELIVERY_STATUS } from './words.ts';

type Webhook = Schemas['Webhook'];
type Delivery = Schemas['WebhookDelivery'];

export function DeliveryBadge({ status }: { status: Delivery['status'] }) {
  return <Badge tone={DELIVERY_STATUS[status].tone}>{DELIVERY_STATUS[status].label}</Badge>;
}

/** The endpoint's state in words, with a badge that does not rely on colour alone. */
export function Health({ hook }: { hook: Webhook }) {
  if (!hook.enabled) return <Badge tone='bad'>Off</Badge>;
  if (hook.failing_since) return <Badge tone='bad'>Failing</Badge>;
  if (hook.slow_since) return <Badge tone='warn'>Slow</Badge>;
  return <Badge tone='good'>On</Badge>;
}
