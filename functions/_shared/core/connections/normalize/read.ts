// Reading untrusted payloads: each value checked for its type and bounded to what the database
// keeps, so a payload either reads cleanly or is refused with the field that failed.
import { type OrderItem, Refusal } from './types.ts';

export type Json = Record<string, unknown>;

/** Items of an order kept at most (the database's order_items hold 100). */
export const MAX_ITEMS = 100;

export const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Json : undefined;

export function need(v: unknown, field: string): Json {
  const o = obj(v);
  if (!o) throw new Refusal(`${field}: must be an object`);
  return o;
}

/** A string or number id as text (1–200 characters), or undefined. */
export function idText(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') throw new Refusal(`${field}: must be a string or a number`);
  const s = String(v).trim();
  if (s.length === 0) return undefined;
  if (s.length > 200) throw new Refusal(`${field}: at most 200 characters`);
  return s;
}

/** Free text cut to `max` characters, or undefined. */
export function text(v: unknown, max = 200): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s ? s.slice(0, max) : undefined;
}

/** An e-mail address as orders keep it, or undefined (not one). */
export function email(v: unknown): string | undefined {
  const s = text(v, 400);
  return s && s.length <= 320 && /^[^@\s]+@[^@\s]+$/.test(s) ? s.toLowerCase() : undefined;
}

/** A locale as review requests take it (`fr`, `pt-BR`), or undefined. */
export function locale(v: unknown): string | undefined {
  const m = typeof v === 'string' ? /^([a-zA-Z]{2})(?:[-_]([a-zA-Z]{2}))?$/.exec(v.trim()) : null;
  return m ? (m[2] ? `${m[1].toLowerCase()}-${m[2].toUpperCase()}` : m[1].toLowerCase()) : undefined;
}

export function country(v: unknown): string | undefined {
  return typeof v === 'string' && /^[a-zA-Z]{2}$/.test(v.trim()) ? v.trim().toUpperCase() : undefined;
}

/** An ISO time, from an ISO string (a zone-less one is UTC) or Unix seconds, or undefined. */
export function time(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v * 1000).toISOString();
  if (typeof v !== 'string' || v.length > 40) return undefined;
  const s = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** An order's items from a platform's list, by the product id field; at most MAX_ITEMS. */
export function items(list: unknown, productId: (item: Json) => unknown, field: string): OrderItem[] | undefined {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) throw new Refusal(`${field}: must be an array`);
  if (list.length > MAX_ITEMS) throw new Refusal(`${field}: at most ${MAX_ITEMS} items`);
  const out: OrderItem[] = [];
  list.forEach((raw, i) => {
    const item = need(raw, `${field}[${i}]`);
    const id = idText(productId(item), `${field}[${i}].product_id`);
    if (!id) return; // a custom line (shipping, a tip) names no product
    const q = Number(item.quantity ?? 1);
    out.push({
      product_external_id: id,
      quantity: Number.isInteger(q) && q >= 1 ? Math.min(q, 10_000) : 1,
      ...(item.refunded === true ? { refunded: true } : {}),
    });
  });
  return out;
}

/** Drops the undefined fields (the database takes absent fields as "unchanged"). */
export function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
