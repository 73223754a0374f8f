// Applies a connection event's actions through the database's functions, in the caller's
// transaction (the worker's role): every decision is the database's (orders_timeline.sql,
// shop_connections.sql); this only routes each action to its function. Events that are order
// events only (most of a shop's) are applied a batch in one call (applyOrderEvents).
import { asJson, type Sql } from '../db/client.ts';
import type { Action, OrderFacts } from './normalize/index.ts';

export async function applyActions(
  tx: Sql,
  event: { id: string; connection_id: string },
  actions: Action[],
  linkBase: string,
  /** Where an erasure's photo and video files are deleted from, once the transaction committed. */
  erasedFiles: string[],
): Promise<'accepted' | 'ignored'> {
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
        break;
    }
  }
  return outcomeOf(actions);
}

/** An event is accepted when it means anything, ignored when all it means is ignored. */
function outcomeOf(actions: Action[]): 'accepted' | 'ignored' {
  return actions.some((a) => a.kind !== 'ignored') ? 'accepted' : 'ignored';
}

/** An event as plaudit.apply_connection_order_events reads it: its order actions and its outcome. */
export interface OrderEventsEntry {
  id: string;
  connection_id: string;
  outcome: string;
  orders: { type: string; occurred_at: string; order: OrderFacts }[];
}

/**
 * The event's entry in a batch of order events, or null when it means something else too (a
 * product, an erasure, a data request), which applyActions applies on its own. A refused event
 * (`actions` a refusal's reason) is only its outcome.
 */
export function orderEventsEntry(
  event: { id: string; connection_id: string },
  actions: Action[] | { refused: string },
): OrderEventsEntry | null {
  if (!Array.isArray(actions)) {
    return { id: event.id, connection_id: event.connection_id, outcome: `refused: ${actions.refused}`, orders: [] };
  }
  const orders = [];
  for (const a of actions) {
    if (a.kind === 'order') orders.push({ type: a.type, occurred_at: a.occurredAt, order: a.order });
    else if (a.kind !== 'ignored') return null;
  }
  return { id: event.id, connection_id: event.connection_id, outcome: outcomeOf(actions), orders };
}

/**
 * Applies a batch of order events and records their outcomes in one statement, in the caller's
 * transaction: each event in the batch's order and on its own (one that fails rolls back alone).
 * Answers those that failed, with why; they are retried after the lease. The statement is lazy
 * (sent when awaited), so that asWorker sends the worker's role before it.
 */
export function applyOrderEvents(tx: Sql, entries: OrderEventsEntry[], linkBase: string) {
  return tx<{ event_id: string; error: string }[]>`
    select event_id::text, error from plaudit.apply_connection_order_events(${tx.json(asJson(entries))}, ${linkBase})`;
}
