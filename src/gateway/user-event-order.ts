import { parseUnitsStrict } from '../money';

/**
 * Drops a user event older than one this process already delivered for the same order or fill.
 * An order's events come from its market's steps (through the push lanes of the worker running the
 * market) and from its settlement (through those of whichever worker runs it), so with several
 * workers a backed-up lane could deliver MATCHED after FILLED. What an order shows only moves
 * forward: its status rank (OPEN, then PARTIALLY_FILLED, then MATCHED, then an end) and, within a
 * rank, its matched size (`remaining_size` only falls). A fill is news until it is final: after
 * CONFIRMED or FAILED nothing else is (MINED may go back to RETRYING when its block leaves the
 * chain, so the statuses before the end are not ranked). Equal states pass: a repeat is harmless.
 * Memory is bounded: the newest `maxEntries` orders and fills are remembered.
 */
export class UserEventOrder {
  private readonly orders = new Map<string, { rank: number; remaining: bigint | null }>();
  private readonly finalFills = new Map<string, true>();

  constructor(private readonly maxEntries = 100_000) {}

  /** Whether the payload of a `user` event is news (and remembers it); false for a stale one. */
  admit(payload: { type: string; order?: Record<string, unknown>; fill?: Record<string, unknown> }): boolean {
    if (payload.type === 'order' && payload.order) return this.admitOrder(payload.order);
    if (payload.type === 'fill' && payload.fill) return this.admitFill(payload.fill);
    return true;
  }

  private admitOrder(order: Record<string, unknown>): boolean {
    const hash = String(order.order_hash);
    const rank = ORDER_RANK[String(order.status)];
    if (rank === undefined) return true;
    const remaining = remainingOf(order.remaining_size);
    const last = this.orders.get(hash);
    if (last && (rank < last.rank || (rank === last.rank && remaining !== null && last.remaining !== null && remaining > last.remaining))) return false;
    remember(this.orders, hash, { rank, remaining }, this.maxEntries);
    return true;
  }

  private admitFill(fill: Record<string, unknown>): boolean {
    const key = `${String(fill.trade_id)}:${String(fill.role ?? fill.order_hash ?? '')}`;
    const final = fill.settlement_status === 'CONFIRMED' || fill.settlement_status === 'FAILED';
    if (this.finalFills.has(key)) return final;
    if (final) remember(this.finalFills, key, true, this.maxEntries);
    return true;
  }
}

/** OPEN, then PARTIALLY_FILLED, then MATCHED, then an end (an order never leaves one). */
const ORDER_RANK: Record<string, number> = {
  OPEN: 0, PARTIALLY_FILLED: 1, MATCHED: 2, FILLED: 3, CANCELLED: 3, EXPIRED: 3, MATCH_FAILED: 3,
};

function remainingOf(value: unknown): bigint | null {
  if (typeof value !== 'string') return null;
  try {
    return parseUnitsStrict(value, 18);
  } catch {
    return null;
  }
}

/** Sets `key` as the newest entry, forgetting the oldest past `max`. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as string);
}
