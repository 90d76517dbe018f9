/**
 * The market workflow's side of a settlement that failed because of some orders of a match (leg
 * blame, workflows/settlement-unwind.ts): the other orders go back where they stood, through the
 * pure engine (`Engine.reinstate`): a maker rests again at its original place in the FIFO, a taker
 * meets the book again; the blamed orders still resting leave it MATCH_FAILED with their reason.
 * Deterministic workflow code: the orders' rows come from one activity.
 */
import { log, proxyActivities } from '@temporalio/workflow';
import type { ReturnedRow, SettlementActivities } from '../activities/settlement.activities';
import { isEngineError, type Engine, type EngineEvent, type Reinstatement } from '../src/engine';
import { DB_STEP } from './activity-presets';
import type { ReturnOrders } from './definitions';

const db = proxyActivities<SettlementActivities>(DB_STEP);

export interface ReturnStep {
  events: EngineEvent[];
  /** Blamed orders taken off the book: they end MATCH_FAILED with this reason. */
  failed: Record<string, string>;
}

/** Applies one return to the book at `now` (unix seconds); the caller writes the step. */
export async function applyReturn(book: Engine, marketKey: string, request: ReturnOrders, now: number): Promise<ReturnStep> {
  const events: EngineEvent[] = [];
  const failed: Record<string, string> = {};
  for (const { orderHash, reason } of request.failed) {
    const hash = orderHash.toLowerCase();
    if (!book.order(hash)) continue;
    for (const e of book.cancel(hash, now, 'OPERATOR')) events.push(e);
    failed[hash] = reason;
  }
  if (request.returned.length > 0) {
    const rows = await db.loadReturnedOrders({ hashes: request.returned.map((r) => r.hash) });
    const list = reinstatementsOf(book, marketKey, request.returned, rows);
    for (const e of reinstateEach(book, list, now)) events.push(e);
  }
  return { events, failed };
}

/**
 * What to put back, in the order the engine takes it: the makers by arrival, then the takers. An
 * order that ended meanwhile (cancelled, expired), or of another market, is left as it is.
 */
export function reinstatementsOf(book: Engine, marketKey: string, returned: ReturnOrders['returned'], rows: ReturnedRow[]): Reinstatement[] {
  const rowOf = new Map(rows.map((r) => [r.hash.toLowerCase(), r]));
  const list: { entry: Reinstatement; role: 'maker' | 'taker'; arrival: number }[] = [];
  for (const r of returned) {
    const hash = r.hash.toLowerCase();
    const row = rowOf.get(hash);
    if (!row || row.market_key !== marketKey) continue;
    const resting = book.order(hash);
    if (!resting && row.status !== 'MATCHED') continue;
    const order = {
      hash, maker: row.maker, taker: row.taker, side: row.side, outcome: row.outcome, orderType: row.orderType, price: row.price,
      size: BigInt(row.size), makerAmount: BigInt(row.makerAmount), takerAmount: BigInt(row.takerAmount), expiration: row.expiration, feeRateBps: row.feeRateBps,
    };
    const known = resting ? undefined : { filled: BigInt(row.filled), remaining: BigInt(row.remaining), arrival: row.arrival };
    list.push({ entry: { order, returned: BigInt(r.units), known }, role: r.role, arrival: resting?.arrival ?? row.arrival ?? Number.MAX_SAFE_INTEGER });
  }
  const rank = (x: (typeof list)[number]) => (x.role === 'maker' ? 0 : 1);
  return list.sort((a, b) => rank(a) - rank(b) || a.arrival - b.arrival).map((x) => x.entry);
}

/** All at once; should the engine refuse the list (a row out of step), each on its own, skipping what it refuses. */
function reinstateEach(book: Engine, list: Reinstatement[], now: number): EngineEvent[] {
  try {
    return book.reinstate(list, now);
  } catch (error) {
    if (!isEngineError(error)) throw error;
  }
  const events: EngineEvent[] = [];
  for (const entry of list) {
    try {
      for (const e of book.reinstate([entry], now)) events.push(e);
    } catch (error) {
      if (!isEngineError(error)) throw error;
      log.warn('returned order refused by the engine', { hash: entry.order.hash, code: error.code, message: error.message });
    }
  }
  return events;
}
