/**
 * Orders after their batch's fills are final: settled units and reservations recomputed from
 * their fills, MATCHED -> FILLED or MATCH_FAILED, with guarded writes that a market step or
 * another settlement may overtake (then computed again from a fresh read).
 */
import type { mongo } from 'mongoose';
import { findByIds, type FillRecord, type StoredOrder } from '../../src/matching/collections';
import { fillIdOf, fillIdsOf } from '../../src/matching/market-ids';
import { presentOrder } from '../../src/presenters/present-order';
import { statusReasonFor } from '../../src/ports/status-reasons';
import { holdLevelOf, type HoldLevel, type RealtimeEvent } from '../../src/ports/realtime-publisher';
import { reservedUnitsOf } from '../market/stored-orders';
import { FINAL, type SettlementContext } from './context';

export function createOrderFinish({ c, afterSteps, publish }: SettlementContext) {
  /**
   * After the batch's fills are final: recomputes each involved order's settled units and
   * reservation from its fills, moves MATCHED -> FILLED (all fills CONFIRMED) or -> MATCH_FAILED
   * (a fill FAILED), and returns the failed orders still resting (the market workflow removes them).
   */
  async function finishOrders(q: { tradeIds: string[]; failed: boolean }): Promise<{ resting: string[] }> {
    return finishWith(await afterSteps('settle.finishFills', () => findByIds(c.fills, fillIdsOf(q.tradeIds))), q.failed);
  }

  /** `finishOrders` given the batch's fills as stored. */
  async function finishWith(batchFills: FillRecord[], failed: boolean, reasons = new Map<string, string>()): Promise<{ resting: string[] }> {
    const now = new Date();
    const resting = new Set<string>();
    const events: RealtimeEvent[] = [];
    const holds = new Map<string, HoldLevel>();
    // An order row has two writers: the market's steps (engine state) and settlement (settled
    // units, the end of a MATCHED order). Each write here is guarded by what it was computed
    // from; one that a step or another settlement overtook is computed again from a fresh read.
    let orders = await afterSteps('settle.ordersRead', () => findByIds(c.orders, [...new Set(batchFills.map((f) => f.order_hash))]));
    for (let round = 1; orders.length > 0; round++) {
      if (round > MAX_FINISH_ROUNDS) throw new Error(`finishing orders: ${orders.length} still overtaken after ${MAX_FINISH_ROUNDS} rounds`);
      // Read after the orders: a settlement that moved an order before this read had marked its fills first.
      const others = await afterSteps('settle.otherFills', () => otherFillsOf(orders, batchFills));
      const fillsOf = new Map<string, FillRecord[]>();
      for (const f of [...batchFills, ...others]) {
        const own = fillsOf.get(f.order_hash);
        if (own) own.push(f);
        else fillsOf.set(f.order_hash, [f]);
      }
      const finished = orders.map((o) => ({ before: o, after: finishedOrder(o, fillsOf.get(o.order_hash) ?? [], failed, now, reasons.get(o.order_hash)) }));
      const writes = finished.map(({ before, after }) => ({
        updateOne: {
          filter: { _id: before.order_hash, applied_seq: before.applied_seq, status: before.status, settled_units: before.settled_units ?? { $exists: false } },
          update: { $set: { status: after.status, status_reason: after.status_reason ?? null, settled_units: after.settled_units, reserved_units: after.reserved_units, updated_at: now } },
        },
      }));
      const result = await afterSteps('settle.ordersWrite', () => c.orders.bulkWrite(writes as mongo.AnyBulkWriteOperation<StoredOrder>[], { ordered: false }));
      // All landed, or the rows as they are now: the ones that hold what was written landed, the
      // others go round again from these rows.
      const rows = result.matchedCount === writes.length ? undefined : new Map((await afterSteps('settle.ordersCheck', () => findByIds(c.orders, orders.map((o) => o.order_hash)))).map((o) => [o.order_hash, o]));
      orders = [];
      for (const { before, after } of finished) {
        const row = rows?.get(after.order_hash);
        if (rows && !row) continue; // gone: nothing to finish
        if (row && !holdsWritten(row, after)) {
          orders.push(row);
          continue;
        }
        // An order this finish leaves ended is announced even when its row already said so: that is
        // a retry whose lost attempt wrote it and died before publishing (a duplicate is harmless).
        if (after.status !== before.status || SETTLEMENT_ENDS.includes(after.status)) {
          events.push({ channel: 'user', wallet: after.wallet, payload: { type: 'order', order: presentOrder(after) } });
        }
        if (after.resting) resting.add(after.order_hash);
        holds.set(after.order_hash, holdLevelOf(after));
      }
    }
    if (holds.size > 0) events.push({ channel: 'holds', holds: [...holds.values()] });
    await publish(events);
    return { resting: [...resting] };
  }

  /** The orders' fills other than `known`, by the keys each order lists (`fill_ids`, written as it matched). */
  async function otherFillsOf(orders: StoredOrder[], known: FillRecord[]): Promise<FillRecord[]> {
    const have = new Set(known.map((f) => fillIdOf(f.trade_id, f.role)));
    return findByIds(c.fills, [...new Set(orders.flatMap((o) => o.fill_ids ?? []))].filter((id) => !have.has(id)));
  }

  return { finishOrders, finishWith };
}

export type OrderFinish = ReturnType<typeof createOrderFinish>;

/** The ends of an order that settlement decides (MATCHED -> FILLED or MATCH_FAILED). */
const SETTLEMENT_ENDS: string[] = ['FILLED', 'MATCH_FAILED'];

/** Rounds of `finishWith` before it gives up to the activity's retry: each lost one is a step or settlement that wrote between its read and its write. */
const MAX_FINISH_ROUNDS = 5;

/**
 * An order as settlement leaves it, from its fills: settled units (fills final for good), what it
 * still reserves, and its end: MATCHED -> FILLED once every fill is CONFIRMED and covers what it
 * filled, any MATCHED order with a fill FAILED for good -> MATCH_FAILED (decisions.md; `reason`, or
 * SETTLEMENT_FAILED when the failure was not pinned on an order), whichever batch's fill failed.
 * An order still open with a failed fill of this batch is `resting`: the market workflow removes
 * it, as it owns every other transition. A `returned` fill (its match failed for another order)
 * counts for nothing while its order is open or MATCHED (the market puts it back, or has: its
 * filled units no longer hold it); once the order ended otherwise, it is final like any other.
 */
function finishedOrder(o: StoredOrder, fills: FillRecord[], failed: boolean, now: Date, reason?: string): StoredOrder & { resting: boolean } {
  const open = o.status === 'OPEN' || o.status === 'PARTIALLY_FILLED';
  const ended = !open && o.status !== 'MATCHED';
  const own = fills.filter((f) => !f.returned || ended);
  const settled = own.filter((f) => FINAL.includes(f.settlement_status)).reduce((sum, f) => sum + BigInt(f.size_units), 0n);
  const unsettled = BigInt(o.filled_units) - settled;
  const reserved = reservedUnitsOf(o, open ? BigInt(o.remaining_units) : 0n, unsettled);
  const anyFailed = own.some((f) => f.settlement_status === 'FAILED' && !f.returned);
  let status = o.status;
  let statusReason = o.status_reason;
  if (o.status === 'MATCHED' && anyFailed) {
    status = 'MATCH_FAILED';
    statusReason = statusReasonFor('MATCH_FAILED', reason);
  } else if (o.status === 'MATCHED' && own.length > 0 && own.every((f) => f.settlement_status === 'CONFIRMED') && settled === BigInt(o.filled_units)) {
    status = 'FILLED';
  }
  return {
    ...o, status, status_reason: statusReason, settled_units: settled.toString(), reserved_units: reserved.toString(), updated_at: now,
    resting: failed && anyFailed && open,
  };
}

/** Whether an order row holds what settlement's guarded write set (else another writer overtook it). */
function holdsWritten(row: StoredOrder, written: StoredOrder): boolean {
  return row.applied_seq === written.applied_seq && row.status === written.status
    && row.settled_units === written.settled_units && row.reserved_units === written.reserved_units;
}
