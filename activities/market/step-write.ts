/**
 * A step's write: ONE idempotent bulk write per collection, then its events. Every write is
 * guarded so that an at-least-once retry never applies twice: orders by `applied_seq`, fills by
 * their `_id` (inserted; a duplicate key means already written), book levels and the ticker by
 * their seq, counters by $max.
 */
import type { mongo } from 'mongoose';
import { bulk, insertNew } from '../../src/db/bulk-writes';
import { timed } from '../../src/logging/stage-timings';
import { findByIds, isDuplicateKey, type FillRecord, type StoredOrder } from '../../src/matching/collections';
import { fillIdOf, marketKeyOf, settlementBatchIdOf, type MarketRef } from '../../src/matching/market-ids';
import type { BatchWrite, StepOutcome, TradeLegWrite } from '../../src/matching/payloads';
import { presentFill } from '../../src/presenters/present-fill';
import { presentOrder } from '../../src/presenters/present-order';
import { presentTicker, priceOfTicks } from '../../src/presenters/present-ticker';
import { observeStep } from '../../src/metrics/step-metrics';
import { formatCanonical } from '../../src/money';
import { statusReasonFor } from '../../src/ports/status-reasons';
import { holdLevelOf, type RealtimeEvent } from '../../src/ports/realtime-publisher';
import { applyFillsToPositions } from '../../src/positions/position-rows';
import type { MarketContext } from './context';
import { createMarketRowWrites } from './market-rows';
import { createStepClaims } from './step-claims';
import { createDivergenceReport } from './step-divergence';
import { reservedUnitsOf } from './stored-orders';

/** Rounds of a step's order writes overtaken by settlement before the step fails to its retry (each round is one settlement write between a read and a write). */
const MAX_REWRITE_ROUNDS = 5;

export function createStepWrites(ctx: MarketContext) {
  const { c, publisher, logger, priority, loaded, deliveries } = ctx;
  const { writeMarketRows } = createMarketRowWrites(ctx);
  const { claimStep, keepLastStep } = createStepClaims(ctx);
  const { reportDivergence } = createDivergenceReport(ctx);

  /** A step's write (`writeStep`), marked as a step until it ends. */
  async function applyMatchBatch(batch: BatchWrite): Promise<StepOutcome> {
    const key = marketKeyOf(batch.market);
    priority.stepStarted(key);
    try {
      return await writeStep(batch);
    } finally {
      priority.stepEnded(key);
    }
  }

  /**
   * `again`: the step of an earlier run written once more (finishEarlierRun); its events go out
   * only when it wrote a fill or an order that was missing, and the answer says whether it did.
   */
  async function writeStep(batch: BatchWrite, options: { again?: boolean } = {}): Promise<StepOutcome & { again?: boolean }> {
    const started = performance.now();
    const at = new Date(batch.at);
    const { market, decimals } = batch;
    const filter = { chain_id: market.chain_id, condition_id: market.condition_id };
    const shares = (units: string | bigint) => formatCanonical(BigInt(units), decimals);

    // 0. Engine counters first: if this step is cut short for good (workflow terminated), a cold
    //    start still resumes above every seq and trade number the step may have written.
    const n = batch.counters;
    // Awaited below, before anything else is written; the read of the makers runs beside it.
    const countersWritten = timed('step.counters', () => c.bookStates.updateOne(filter, {
      $max: { engine_seq: n.seq, engine_book_seq: n.bookSeq, engine_trade_seq: n.tradeSeq, engine_arrival: n.arrival }, $setOnInsert: { seq: 0 }, $set: { updated_at: at },
    }, { upsert: true })).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });

    // 1. Fills first: an order that reads MATCHED always has its fills.
    const touched = [...new Set([...batch.orders.map((o) => o.hash), ...batch.direct.map((d) => d.hash)])];
    // Whole documents: the events at the end present each order as this step leaves it, without reading it back.
    // Only the orders this step placed (or ended at once) can come from its load (LoadedOrders);
    // the makers they met are read, as settlement may have written them since.
    const placedHere = new Set([...batch.orders.filter((o) => o.placed).map((o) => o.hash), ...batch.direct.map((d) => d.hash)]);
    const marketKey = marketKeyOf(market);
    const kept = loaded.take(marketKey, touched.filter((h) => placedHere.has(h)));
    kept.missing.push(...touched.filter((h) => !placedHere.has(h)));
    const [claimed, , others] = await Promise.all([
      batch.step ? claimStep(market, marketKey, batch.at, batch.step) : true, countersWritten, timed('step.known', () => findByIds(c.orders, kept.missing)),
      batch.step ? timed('step.keepWrite', () => keepLastStep(marketKey, batch, batch.step!)) : undefined,
    ]);
    if (!claimed) return { diverged: true };
    // 4. The market's rows, beside 1-3 (writeMarketRows); awaited before the market's events.
    const marketRows = timed('step.marketRows', () => writeMarketRows(batch, at));
    marketRows.catch(() => undefined); // awaited below; a failure fails the step there
    const known = [...kept.found, ...others];
    const meta = new Map(known.map((o) => [o.order_hash, o]));
    const fillIdsByOrder = new Map<string, string[]>();
    const fills: FillRecord[] = [];
    let newFills = 0;
    if (batch.trades.length > 0) {
      // The settlement workflow carrying the step's trades is `settlement-{settlement_batch}` (operators look it up by fill).
      const settlementBatch = batch.settlementBatch ?? settlementBatchIdOf(marketKey, batch.trades[0].tradeId);
      for (const t of batch.trades) {
        for (const [leg, other, role] of [[t.maker, t.taker, 'maker'], [t.taker, t.maker, 'taker']] as [TradeLegWrite, TradeLegWrite, 'maker' | 'taker'][]) {
          const _id = fillIdOf(t.tradeId, role);
          const ids = fillIdsByOrder.get(leg.orderHash) ?? [];
          ids.push(_id);
          fillIdsByOrder.set(leg.orderHash, ids);
          fills.push({
            _id, trade_id: t.tradeId, order_hash: leg.orderHash, wallet: leg.maker.toLowerCase(), chain_id: market.chain_id,
            condition_id: market.condition_id, market_key: marketKey, role, side: leg.side, outcome: leg.outcome,
            price: priceOfTicks(leg.price), size: shares(leg.size), fee: formatCanonical(BigInt(leg.fee), decimals),
            size_units: leg.size, fee_units: leg.fee, collateral_units: leg.collateral, kind: t.kind,
            settlement_status: 'PENDING', tx_hash: '', counter_order_hash: other.orderHash, created_at: at, updated_at: at,
            settlement_batch: settlementBatch,
            // The public print is written when the trade settles (activities/settlement/public-trades.ts), from this.
            ...(role === 'taker' ? { trade_price: priceOfTicks(t.yesPrice) } : {}),
          });
        }
      }
      await timed('step.fills', async () => {
        const existing = await insertNew(c.fills, fills);
        newFills = fills.length - existing.length;
        await reportDivergence(market, fills, existing);
        // Written before by a lost attempt of this step, whose task's decisions are gone: a child
        // that finished before the retried step may have given its trades another batch. The fills
        // name the batch this attempt's workflow state will start (nothing settles them before it).
        if (existing.length > 0 && batch.settlementBatch) {
          await c.fills.updateMany(
            { _id: { $in: existing }, settlement_status: 'PENDING', settlement_batch: { $ne: settlementBatch } },
            { $set: { settlement_batch: settlementBatch } },
          );
        }
      });
    }

    // The fills' positions beside the orders: a retried step folds none twice (src/positions/position-rows.ts).
    const positionsWritten = fills.length > 0 ? timed('step.positions', () => applyFillsToPositions(c.positions, fills, decimals, at)) : undefined;
    positionsWritten?.catch(() => undefined); // awaited below; a failure fails the step there

    // 2. Orders, each guarded by the engine seq that produced its state, and by the settled units
    //    its reservation was computed from (settlement writes them). `after` is each order as the
    //    step leaves it (a retried step computes the same values from the same seq).
    const after = new Map<string, StoredOrder>();
    const orderOpOf = (o: BatchWrite['orders'][number], m: StoredOrder | undefined): mongo.AnyBulkWriteOperation<StoredOrder> => {
      const resting = o.status === 'OPEN' || o.status === 'PARTIALLY_FILLED' ? BigInt(o.remaining) : 0n;
      const unsettled = BigInt(o.filled) - BigInt(m?.settled_units ?? '0');
      const reserved = m ? reservedUnitsOf(m, resting, unsettled).toString() : '0';
      const set: Partial<StoredOrder> = {
        status: o.status, remaining_units: o.remaining, remaining_size: shares(o.remaining), filled_units: o.filled,
        applied_seq: o.seq, reserved_units: reserved, updated_at: at, status_reason: statusReasonFor(o.status, o.reason),
      };
      // A maker filled off the book keeps the arrival it rested with: if its match fails for another
      // order, it rests again at that place (settlement's leg blame, Engine.reinstate).
      if (o.arrival !== null || o.status !== 'MATCHED') set.engine_arrival = o.arrival;
      if (o.placed) Object.assign(set, { book_added_at: at, handoff: 'ACCEPTED' });
      const fillIds = fillIdsByOrder.get(o.hash);
      // The order lists its fills, so settlement finds them by key rather than by a query.
      const update = fillIds ? { $set: set, $addToSet: { fill_ids: { $each: fillIds } } } : { $set: set };
      if (m) after.set(o.hash, { ...m, ...set, ...(fillIds ? { fill_ids: [...new Set([...(m.fill_ids ?? []), ...fillIds])] } : {}) });
      const settledGuard = m ? { settled_units: m.settled_units ?? { $exists: false } } : {};
      return { updateOne: { filter: { _id: o.hash, applied_seq: { $lt: o.seq }, ...settledGuard }, update } };
    };
    const orderOps = batch.orders.map((o) => orderOpOf(o, meta.get(o.hash)));
    for (const d of batch.direct) {
      const m = meta.get(d.hash);
      const unsettled = 0n - BigInt(m?.settled_units ?? '0');
      const set = {
        status: d.status, handoff: 'ACCEPTED' as const, book_added_at: at, updated_at: at, status_reason: statusReasonFor(d.status, d.reason),
        reserved_units: unsettled > 0n ? unsettled.toString() : '0', applied_seq: batch.counters.seq, engine_arrival: null,
      };
      if (m?.handoff === 'PENDING' && m.status === 'OPEN') after.set(d.hash, { ...m, ...set });
      orderOps.push({ updateOne: { filter: { _id: d.hash, handoff: 'PENDING', status: 'OPEN' }, update: { $set: set } } });
    }
    let matched = await timed('step.orders', () => bulk(c.orders, orderOps));
    if (matched < orderOps.length && batch.orders.length > 0) matched += await timed('step.ordersAgain', () => rewriteOvertaken(batch.orders, orderOpOf));
    // The orders this step took are handed over for good: their markers go now, so the hand-off
    // sweeper reads only lost hand-offs (it otherwise read every order once, 2 s after placing).
    const markersDone = placedHere.size > 0 ? timed('step.markers', () => c.handoffs.deleteMany({ _id: { $in: [...placedHere] } })) : undefined;
    await positionsWritten;
    if (options.again && newFills === 0 && matched === 0) {
      await Promise.all([marketRows, markersDone]);
      return {};
    }

    // 3. The traders' events as soon as their orders and fills are written (the matched event is
    //    what a trader waits for), whether or not the market rows are written yet.
    const userEvents: RealtimeEvent[] = [];
    for (const hash of touched) {
      const o = after.get(hash) ?? meta.get(hash);
      if (o) userEvents.push({ channel: 'user', wallet: o.wallet, payload: { type: 'order', order: presentOrder(o) } });
    }
    for (const f of fills) userEvents.push({ channel: 'user', wallet: f.wallet, payload: { type: 'fill', fill: presentFill(f) } });
    // What the orders reserve now, for order entry's holds (an order just placed still holds what it reserved).
    const holds = [...after.values()].filter((o) => o.status !== 'OPEN').map(holdLevelOf);
    if (holds.length > 0) userEvents.push({ channel: 'holds', holds });
    const userPublished = publishSafely(userEvents, market);

    await marketRows;

    // 5. The market's events, once its rows are written. The rows are the truth: a publish failure
    //    is logged, clients resync from REST.
    const marketEvents: RealtimeEvent[] = [];
    for (const delta of batch.book) {
      marketEvents.push({
        channel: 'book', ...filter,
        payload: { type: 'delta', seq: delta.bookSeq, changes: delta.changes.map((ch) => ({ side: ch.side, price: priceOfTicks(ch.price), remainingSize: shares(ch.remaining) })) },
      });
    }
    // No `trades` print here: a print goes out when its trade settles (activities/settlement/public-trades.ts),
    // as REST lists only settled prints; the ticker's last price moves at once.
    if (batch.ticker) marketEvents.push({ channel: 'ticker', ...filter, payload: presentTicker(market, batch.ticker, batch.at) });
    // The step returns without waiting for its events to reach the API processes (the push lanes
    // keep their order, src/gateway/push-lanes.ts); it waits for the previous step's instead, so
    // a market has at most two steps' events in flight.
    const previous = deliveries.get(marketKey);
    const delivered = Promise.all([userPublished, publishSafely(marketEvents, market)]);
    deliveries.set(marketKey, delivered);
    void delivered.then(() => {
      if (deliveries.get(marketKey) === delivered) deliveries.delete(marketKey);
    });
    await Promise.all([previous, markersDone]);
    observeStep({ started, orders: touched.length, newFills, takerCreatedAt: options.again ? [] : fills.filter((f) => f.role === 'taker').map((f) => meta.get(f.order_hash)?.created_at) });
    return options.again ? { again: true } : {};
  }

  /**
   * A step's order writes that missed their guard: ones a retried step had written already
   * (`applied_seq` at or past theirs) are done; the others met a settlement that wrote the
   * order's settled units after the step read it, and are computed again from the row as it is.
   * Answers how many it wrote.
   */
  async function rewriteOvertaken(
    orders: BatchWrite['orders'],
    orderOpOf: (o: BatchWrite['orders'][number], m: StoredOrder | undefined) => mongo.AnyBulkWriteOperation<StoredOrder>,
  ): Promise<number> {
    let left = orders;
    let rewritten = 0;
    for (let round = 1; left.length > 0; round++) {
      const rows = new Map((await findByIds(c.orders, left.map((o) => o.hash))).map((row) => [row.order_hash, row]));
      left = left.filter((o) => rows.has(o.hash) && rows.get(o.hash)!.applied_seq < o.seq);
      if (left.length === 0) break;
      if (round > MAX_REWRITE_ROUNDS) throw new Error(`step write: ${left.length} orders still overtaken after ${MAX_REWRITE_ROUNDS} rounds`);
      rewritten += await bulk(c.orders, left.map((o) => orderOpOf(o, rows.get(o.hash))));
    }
    return rewritten;
  }

  async function publishSafely(events: RealtimeEvent[], market: MarketRef): Promise<void> {
    if (events.length === 0) return;
    try {
      await timed('step.publish', () => publisher.publish(events));
    } catch (error) {
      logger.error({ err: error, market }, 'publishing a market step failed');
    }
  }

  return { applyMatchBatch, writeStep };
}

export type StepWrites = ReturnType<typeof createStepWrites>;
