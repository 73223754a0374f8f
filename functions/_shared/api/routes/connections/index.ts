// Shop connections (docs/connections.md): the connections (connections.ts), the platforms' inbound
// door (inbound.ts), the orders they make (orders.ts) and the review-request automation
// (automation.ts), and a Shopify connection's write-back log (write-backs.ts). The rules live in the database (shop_connections.sql, orders_timeline.sql).
import { router } from '../define.ts';
import { automation } from './automation.ts';
import { connections } from './connections.ts';
import { connectionInbound } from './inbound.ts';
import { orders } from './orders.ts';
import { writeBacks } from './write-backs.ts';

export { setInboundClock } from './inbound.ts';

// The automation first: its path would otherwise be taken for a review request's {id}.
export const shopConnections = router()
  .route('/', automation)
  .route('/', connections)
  .route('/', connectionInbound)
  .route('/', orders)
  .route('/', writeBacks);
