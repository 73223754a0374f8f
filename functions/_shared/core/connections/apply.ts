// Applies a connection event's actions through the database's functions, in the caller's
// transaction (the worker's role): every decision is the database's (orders_timeline.sql,
// shop_connections.sql); this only routes each action to its function.
import { asJson, type Sql } from '../db/client.ts';
import type { Action } from './normalize/index.ts';

export async function applyActions(
  tx: Sql,
  event: { id: string; connection_id: string },
  actions: Action[],
  linkBase: string,
  /** Where an erasure's photo and video files are deleted from, once the transaction committed. */
  erasedFiles: string[],
): Promise<'accepted' | 'ignored'> {
  let applied = 0;
  for (const a of actions) {
    switch (a.kind) {
      case 'order':
        await tx`select plaudit.apply_order_event(${event.connection_id}, ${a.type}, ${a.occurredAt},
                   ${tx.json(asJson(a.order))}, ${linkBase}, ${event.id})`;
        break;
      case 'product':
        await tx`select plaudit.sync_connection_product(${event.connection_id}, ${tx.json(asJson(a.product))},
                   ${a.deleted})`;
        break;
      case 'erase':
        {
          const [row] = await tx<{ files: string[] }[]>`
            select plaudit.erase_connection_customers(${event.connection_id}, ${a.email}) as files`;
          erasedFiles.push(...row.files);
        }
        break;
      case 'data_request':
        await tx`select plaudit.record_connection_data_request(${event.connection_id}, ${a.email})`;
        break;
      case 'ignored':
        continue;
    }
    applied += 1;
  }
  return applied > 0 ? 'accepted' : 'ignored';
}
