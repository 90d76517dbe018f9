/**
 * Activities of the market workflow: load what a step needs, and write what a step changed with
 * ONE idempotent bulk write per step, then publish it. Every write is guarded so that an
 * at-least-once retry never applies twice: orders by `applied_seq`, fills and trades by their `_id`
 * (inserted; a duplicate key means already written), book levels and the ticker by their seq,
 * counters by $max.
 */
import { ApplicationFailure } from '@temporalio/common';
import { observeStep } from '../src/metrics/step-metrics';
import type { mongo } from 'mongoose';
import { holdLevelOf, type RealtimeEvent, type RealtimePublisher } from '../src/ports/realtime-publisher';
import type { HandoffHolder } from '../src/ports/market-matcher';
import type { Logger } from '../src/logging/logger';
import { reserveOf } from '../src/engine';
import { formatCanonical } from '../src/money';
import { bulk, insertNew } from '../src/db/bulk-writes';
import { findByIds, isDuplicateKey, type FillRecord, type MatchingCollections, type StoredOrder } from '../src/matching/collections';
import { LoadedOrders } from '../src/matching/loaded-orders';
import { batchesOfPendingTakerFills, type PendingSettlementsPage } from '../src/matching/pending-settlements';
import { fillIdOf, marketKeyOf, settlementBatchIdOf, type MarketRef } from '../src/matching/market-ids';
import { decisionOf, fitsBatch, normalBatch, sameDecision, stepNumberOf, type StepDecision } from '../src/matching/step-journal';
import {
  placeableRowOf, type BatchWrite, type EngineCounters, type MarketInfo, type MarketStatus, type OrderLookup, type PlaceableOrder, type PlaceableRow,
  type PlacementLoad, type RestingOrderRow, type RestingPage, type StatusWrite, type StepInputs, type StepOutcome, type TradeLegWrite,
} from '../src/matching/payloads';
import { timed } from '../src/logging/stage-timings';
import { NO_STEP_PRIORITY, type StepPriority } from '../src/matching/step-priority';
import { presentFill, presentOrder, presentTicker, priceOfTicks } from '../src/matching/present';
import { statusReasonFor } from '../src/orders/status-reasons';
import { applyFillsToPositions } from '../src/positions/position-rows';

export interface MarketActivityDeps {
  collections: MatchingCollections;
  publisher: RealtimePublisher;
  logger: Logger;
  /** This process's own hand-offs (the sweeper's matcher client), held with the API processes'. */
  handoffs?: HandoffHolder;
  /** Marks each step from its load to its write, so settlement's commands wait for it (default: none). */
  priority?: StepPriority;
}

const OPEN_STATUSES = ['OPEN', 'PARTIALLY_FILLED'];
/** Rounds of a step's order writes overtaken by settlement before the step fails to its retry (each round is one settlement write between a read and a write). */
const MAX_REWRITE_ROUNDS = 5;

/**
 * Units a stored order still holds back: the engine's `reserveOf` (with the most fee a BUY can
 * owe) of what rests plus what matched and is not settled yet (never below 0: a step may not have
 * seen a settlement's units). Both writers of the row, the market's steps and settlement, use it.
 * (Without the fee, a BUY's hold would fall by its fee after its first step, and the wallet could
 * place orders on money the exchange will take in fees, whose settlement would then fail.)
 */
export function reservedUnitsOf(o: Pick<StoredOrder, 'side' | 'price_ticks' | 'fee_rate_bps'>, resting: bigint, unsettled: bigint): bigint {
  return reserveOf(o.side, o.price_ticks, resting + (unsettled > 0n ? unsettled : 0n), Number(o.fee_rate_bps ?? 0));
}

/** Claims of a status version a change may lose (to dead writers' claims or a moved version) before it fails the attempt. */
const MAX_STATUS_ROUNDS = 5;

export function createMarketActivities({ collections: c, publisher, logger, handoffs, priority = NO_STEP_PRIORITY }: MarketActivityDeps) {
  const loaded = new LoadedOrders();
  /** Per market key: the last step's events on their way to the API processes (never rejects). */
  const deliveries = new Map<string, Promise<unknown>>();
  /**
   * The market, its engine counters and last price, at the start of a run. `run.runId`: the
   * step claims of the market's earlier runs are dropped (a run that ended had its steps recorded).
   */
  async function loadMarketState(market: MarketRef, run?: { runId: string }): Promise<{ info: MarketInfo; counters: EngineCounters | null; lastPrice: number | null }> {
    const filter = { chain_id: market.chain_id, condition_id: market.condition_id };
    if (run) await finishEarlierRun(market, run.runId);
    const dropped = run ? c.steps.deleteMany({ market_key: marketKeyOf(market), run_id: { $ne: run.runId } }) : undefined;
    const [doc, state, ticker] = await Promise.all([c.markets.findOne(filter), c.bookStates.findOne(filter), c.tickers.findOne(filter), dropped]);
    const info: MarketInfo = doc
      ? {
        found: true, status: doc.status as MarketStatus, resolution_outcome: (doc.resolution_outcome ?? null) as 0 | 1 | null,
        decimals: Number((doc.tokens as { decimals: number }[] | undefined)?.[0]?.decimals ?? 18), fee_rate_bps: Number(doc.fee_rate_bps ?? 0),
      }
      : { found: false, status: 'PAUSED', resolution_outcome: null, decimals: 18, fee_rate_bps: 0 };
    if (!doc) logger.warn({ market }, 'market workflow started for an unknown market: placements are refused');
    const counters = state && typeof state.engine_seq === 'number'
      ? { seq: state.engine_seq, bookSeq: Math.max(state.engine_book_seq ?? 0, state.seq ?? 0), tradeSeq: state.engine_trade_seq ?? 0, arrival: state.engine_arrival ?? 0 }
      : null;
    const lastPrice = typeof ticker?.last_price === 'string' ? Math.round(Number(ticker.last_price) * 100) : null;
    return { info, counters, lastPrice };
  }

  /**
   * Writes the market's last placement step again when an earlier run wrote it
   * (src/matching/step-journal.ts, `LastStepWrite`). A run terminated while that step's write was
   * failing left it half-written: a maker whose row was not written yet would rest again with its
   * old size and match a second time, a taker still `handoff: PENDING` would be handed over again.
   * Every write of a step is guarded, so a finished step (the usual case: the run continued as
   * new) writes nothing and publishes nothing.
   */
  async function finishEarlierRun(market: MarketRef, runId: string): Promise<void> {
    const last = await c.lastSteps.findOne({ _id: marketKeyOf(market) });
    if (!last || last.run_id === runId) return;
    const wrote = await writeStep(JSON.parse(last.write_json) as BatchWrite, { again: true });
    if (wrote.again) logger.warn({ market, step: last.step }, 'an earlier run left its last step half-written: written in full before the book is rebuilt');
  }

  /** Resting orders of a market in arrival order, a page at a time (each page well under 2 MB). */
  async function loadRestingPage(q: { marketKey: string; afterArrival: number; limit: number }): Promise<RestingPage> {
    const rows = await c.orders
      .find({ market_key: q.marketKey, status: { $in: OPEN_STATUSES as StoredOrder['status'][] }, handoff: 'ACCEPTED', engine_arrival: { $gt: q.afterArrival } })
      .sort({ engine_arrival: 1 })
      .limit(q.limit)
      .toArray();
    const orders = rows.map(restingRowOf);
    return { orders, next: rows.length < q.limit ? null : orders[orders.length - 1].arrival };
  }

  /**
   * The resting orders among `hashes` (the book a previous run carried over, RESTING_CARRIED), in
   * arrival order: the same filter as `loadRestingPage`, addressed by `_id`, so a new run rebuilds
   * without reading every order of the collection.
   */
  async function loadCarriedResting(q: { marketKey: string; hashes: string[] }): Promise<RestingPage> {
    const rows = (await findByIds(c.orders, q.hashes))
      .filter((o) => o.market_key === q.marketKey && OPEN_STATUSES.includes(o.status) && o.handoff === 'ACCEPTED')
      .sort((a, b) => Number(a.engine_arrival) - Number(b.engine_arrival));
    const orders = rows.map(restingRowOf);
    return { orders, next: null };
  }

  /**
   * The market's settlement batches with taker fills still PENDING: a run started cold (after its
   * previous run was terminated) starts those no child is settling (src/matching/pending-settlements.ts).
   * A query by market and status: a scan of the fills on FerretDB, made only by such a run. One
   * page at a time, from the batch whose first trade is numbered `from`.
   */
  async function loadPendingSettlements(q: { marketKey: string; from: number }): Promise<PendingSettlementsPage> {
    const fills = await c.fills
      .find({ market_key: q.marketKey, role: 'taker', settlement_status: 'PENDING' }, { projection: { trade_id: 1, order_hash: 1, settlement_batch: 1 } })
      .toArray();
    return batchesOfPendingTakerFills(fills, q.from);
  }

  /**
   * The persisted orders to place, in the given order; already handed-over ones are skipped
   * (idempotent). A step claimed before (`q.step`, src/matching/step-journal.ts) gets the orders
   * that claim placed, whatever they have become since, and the claim's clock and batch length.
   */
  async function loadOrdersForPlacement(q: { market: MarketRef; hashes: string[]; step?: string }): Promise<PlacementLoad> {
    const key = marketKeyOf(q.market);
    // A step from here to the end of its write (`applyMatchBatch`); a load that places nothing
    // is followed by no write, so its step ends here.
    priority.stepStarted(key);
    const load = await loadPlaceable(q, key);
    if (load.rows?.length === 0) priority.stepEnded(key);
    return load;
  }

  async function loadPlaceable(q: { market: MarketRef; hashes: string[]; step?: string }, key: string): Promise<PlacementLoad> {
    const hashes = normalBatch(q.hashes);
    const [stored, claim] = await Promise.all([findByIds(c.orders, hashes), q.step ? c.steps.findOne({ _id: q.step }) : null]);
    const byHash = new Map(stored.map((o) => [o.order_hash, o]));
    if (claim && fitsBatch(claim, hashes)) return placementOf(key, claim, hashes.slice(0, claim.count), byHash);
    if (claim) logger.error({ market: q.market, step: q.step, claimed: claim.count, batch: hashes.length }, 'a placement step was claimed over another batch: decided afresh');
    const rows: PlaceableRow[] = [];
    const skipped: string[] = [];
    const placeable: StoredOrder[] = [];
    for (const hash of hashes) {
      const o = byHash.get(hash);
      if (o && o.market_key === key && o.handoff === 'PENDING' && o.status === 'OPEN') {
        rows.push(placeableRowOf(toPlaceable(o)));
        placeable.push(o);
      } else {
        skipped.push(hash);
      }
    }
    loaded.keep(key, placeable);
    return { rows, skipped };
  }

  /** The load of a step claimed before: the orders it placed (immutable fields), its clock and length. */
  function placementOf(key: string, claim: StepDecision, taken: string[], byHash: Map<string, StoredOrder>): PlacementLoad {
    const chosen = new Set(claim.placeable.map((i) => taken[i]));
    const placeable = taken.filter((h) => chosen.has(h)).map((h) => byHash.get(h)).filter((o): o is StoredOrder => o !== undefined);
    const rows = placeable.map((o) => placeableRowOf(toPlaceable(o)));
    const placed = new Set(placeable.map((o) => o.order_hash));
    loaded.keep(key, placeable);
    return { rows, skipped: taken.filter((h) => !placed.has(h)), decided: { at: claim.at, count: claim.count } };
  }

  async function lookupOrders(q: { hashes: string[] }): Promise<OrderLookup[]> {
    const rows = await c.orders.find({ _id: { $in: q.hashes.map((h) => h.toLowerCase()) } }, { projection: { order_hash: 1, wallet: 1, market_key: 1, status: 1, handoff: 1 } }).toArray();
    return rows.map((o) => ({ order_hash: o.order_hash, wallet: o.wallet, market_key: o.market_key, status: o.status, handoff: o.handoff }));
  }

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
            // The public print is written when the trade settles (settlement.activities.ts), from this.
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
    // No `trades` print here: a print goes out when its trade settles (settlement.activities.ts),
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

  /**
   * The market's rows of a step: book levels (final value per level), then the public book seq
   * (readers pair it with the levels), and beside them the ticker. They touch no order or fill, so
   * they are written beside the step's fills and orders instead of after them: the step (and the
   * next step, which waits for it) is shorter by these round trips. Every write is guarded by its
   * seq, so a retried step rewrites nothing newer.
   */
  async function writeMarketRows(batch: BatchWrite, at: Date): Promise<void> {
    const filter = { chain_id: batch.market.chain_id, condition_id: batch.market.condition_id };
    const levels = new Map<string, { side: 'bid' | 'ask'; price: number; remaining: string; bookSeq: number }>();
    for (const delta of batch.book) {
      for (const ch of delta.changes) levels.set(`${ch.side}:${ch.price}`, { ...ch, bookSeq: delta.bookSeq });
    }
    const bookWritten = (async () => {
      // An emptied level stays as a row of remaining '0' with its seq (readers skip those), not
      // deleted: a late write of an earlier step (a stale attempt still running) would otherwise
      // find no newer row to lose to and insert the old level again (a phantom level). At most
      // one row per side and tick.
      await timed('step.levels', () => bulk(c.bookLevels, [...levels.values()].map((l): mongo.AnyBulkWriteOperation<mongo.Document> => {
        const key = { ...filter, side: l.side === 'bid' ? 'BID' : 'ASK', ticks: l.price, seq: { $lt: l.bookSeq } };
        return { updateOne: { filter: key, update: { $set: { price: priceOfTicks(l.price), remaining: l.remaining, seq: l.bookSeq } }, upsert: true } };
      })));
      await c.bookStates.updateOne(filter, { $max: { seq: batch.counters.bookSeq }, $set: { updated_at: at } });
    })();
    const t = batch.ticker;
    const price = (ticks: number | null) => (ticks === null ? null : priceOfTicks(ticks));
    const tickerWritten = t
      ? bulk(c.tickers, [{
        updateOne: {
          filter: { ...filter, $or: [{ ticker_seq: { $lt: t.seq } }, { ticker_seq: { $exists: false } }] },
          update: { $set: { best_bid: price(t.bestBid), best_ask: price(t.bestAsk), last_price: price(t.lastPrice), ticker_seq: t.seq, updated_at: at } },
          upsert: true,
        },
      }])
      : undefined;
    await Promise.all([bookWritten, tickerWritten]);
  }

  /**
   * Claims a placement step before anything of it is written (src/matching/step-journal.ts).
   * False: another attempt claimed it over other inputs (it raced this one, both alive), and this
   * one must not write; the workflow task runs again and its load finds that claim.
   */
  async function claimStep(market: MarketRef, marketKey: string, at: number, step: StepInputs): Promise<boolean> {
    const decision = decisionOf(marketKey, at, step, new Date());
    try {
      await c.steps.insertOne(decision);
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const claim = await c.steps.findOne({ _id: decision._id });
    if (claim && sameDecision(claim, decision)) return true;
    logger.error({ market, step: decision._id }, 'a placement step was claimed by another attempt with other inputs: its workflow task runs again');
    return false;
  }

  /**
   * Keeps a placement step's whole write as the market's last, before anything of it is written,
   * for the next run to finish it if this run is cut short for good (finishEarlierRun). A stale
   * attempt of an earlier step of the run replaces nothing (its upsert meets the row's key).
   */
  async function keepLastStep(marketKey: string, batch: BatchWrite, step: StepInputs): Promise<void> {
    const n = stepNumberOf(step.id);
    const row = { step: step.id, run_id: step.runId, n, write_json: JSON.stringify({ ...batch, step: undefined }), updated_at: new Date() };
    await c.lastSteps.updateOne({ _id: marketKey, $or: [{ run_id: { $ne: step.runId } }, { n: { $lte: n } }] }, { $set: row }, { upsert: true }).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
  }

  /**
   * Fills of this step that were there already (`existing`: a retried step) must be the ones it
   * decides now. A step re-decided after a lost workflow task can differ (docs/matching.md, "Worker
   * died mid-step"): the first writer's fills stay, and this says so loudly, naming both versions,
   * for an operator to reconcile, instead of leaving it silent.
   */
  async function reportDivergence(market: MarketRef, fills: FillRecord[], existing: string[]): Promise<void> {
    if (existing.length === 0) return;
    const decided = new Map(fills.map((f) => [f._id, f]));
    const differs = (await findByIds(c.fills, existing)).filter((stored) => {
      const now = decided.get(stored._id);
      return now !== undefined && DIVERGENCE_KEYS.some((k) => stored[k] !== now[k]);
    });
    if (differs.length === 0) return;
    const pick = (f: FillRecord) => Object.fromEntries(DIVERGENCE_KEYS.map((k) => [k, f[k]]));
    logger.error({
      market, fills: differs.map((stored) => ({ id: stored._id, stored: pick(stored), decided: pick(decided.get(stored._id)!) })),
    }, 'market step diverged from an earlier attempt of the same step: the stored fills were kept (docs/matching.md, "Worker died mid-step")');
  }

  async function publishSafely(events: RealtimeEvent[], market: MarketRef): Promise<void> {
    if (events.length === 0) return;
    try {
      await timed('step.publish', () => publisher.publish(events));
    } catch (error) {
      logger.error({ err: error, market }, 'publishing a market step failed');
    }
  }

  /**
   * Applies a status change with the markets module's audit scheme: the change claims audit row
   * `{chain}:{condition}:v{N+1}` (unique), then the market gets status and `status_version` N+1,
   * guarded by N. A retry that finds its own claim (same change) goes on. Another change's claim of
   * N+1 while the market is still at N is a writer that died between its two writes (the market's
   * workflow is the only writer: a run terminated mid-change); it is voided (its row kept, renamed
   * `...:void:{its change}`) and N+1 claimed again. Before, such a claim failed every retry and
   * the market's workflow stopped for good at its next status change.
   */
  async function applyMarketStatus(w: StatusWrite): Promise<void> {
    const at = new Date(w.at);
    const filter = { chain_id: w.market.chain_id, condition_id: w.market.condition_id };
    for (let round = 1; ; round++) {
      const current = await c.markets.findOne(filter);
      if (!current) throw ApplicationFailure.nonRetryable(`market ${w.market.chain_id}-${w.market.condition_id} not found`, 'NOT_FOUND');
      if (current.status === w.to_status && current.resolution_outcome === w.resolution_outcome && current.status_change_id === w.change_id) return;
      if (round > MAX_STATUS_ROUNDS) throw new Error(`status change ${w.change_id} kept losing its version to other writers`);
      const version = Number(current.status_version ?? 0) + 1;
      const change_id = `${w.market.chain_id}:${w.market.condition_id}:v${version}`;
      /** The market still at the version this round read. */
      const asRead = { ...filter, status_version: current.status_version ?? { $exists: false } };
      const other = await claimStatusVersion(change_id, w, at);
      if (other) {
        // Void it only while the market is still below it (its writer may have applied it since the read).
        const still = await c.markets.findOne(asRead, { projection: { _id: 1 } });
        if (still) await c.statusChanges.updateOne({ change_id, workflow_change_id: other.by ?? { $exists: false } }, { $set: { change_id: `${change_id}:void:${other.by ?? 'unknown'}`, voided_at: at } });
        continue;
      }
      const applied = await c.markets.updateOne(asRead, {
        $set: { status: w.to_status, resolution_outcome: w.resolution_outcome, status_version: version, status_change_id: w.change_id, updated_at: at },
      });
      if (applied.matchedCount === 1) return;
      // The version moved under the claim: read again (a retry of this change returns above).
    }
  }

  /** Claims audit row `change_id` for `w`: null when it is this change's, else which change holds it. */
  async function claimStatusVersion(change_id: string, w: StatusWrite, at: Date): Promise<{ by?: string } | null> {
    try {
      await c.statusChanges.insertOne({
        change_id, chain_id: w.market.chain_id, condition_id: w.market.condition_id, from_status: w.from_status, to_status: w.to_status,
        resolution_outcome: w.resolution_outcome, actor: w.actor, via: 'market-workflow', workflow_change_id: w.change_id, at,
      });
      return null;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const claimed = await c.statusChanges.findOne({ change_id });
      if (claimed?.workflow_change_id === w.change_id) return null;
      return { by: typeof claimed?.workflow_change_id === 'string' ? claimed.workflow_change_id : undefined };
    }
  }

  /**
   * Holds the market's hand-offs for up to `holdMs` in every process that sends them (0: sends them
   * now): this worker's own (the sweeper) at once, the API processes' through the realtime fan-out.
   * Resolves once the fan-out has them (push: every API process answered), and `drainMs` later:
   * the hand-off signals sent before the hold took effect land meanwhile.
   */
  async function holdHandoffs(q: { market: MarketRef; holdMs: number; drainMs?: number }): Promise<void> {
    handoffs?.hold(q.market, q.holdMs);
    await publisher.publish([{ channel: 'handoffs', chain_id: q.market.chain_id, condition_id: q.market.condition_id, hold_ms: q.holdMs }]);
    if (q.drainMs) await new Promise((resolve) => setTimeout(resolve, q.drainMs));
  }

  return {
    loadMarketState, loadRestingPage, loadCarriedResting, loadPendingSettlements, loadOrdersForPlacement, lookupOrders, applyMatchBatch, applyMarketStatus,
    holdHandoffs,
  };
}

export type MarketActivities = ReturnType<typeof createMarketActivities>;

function restingRowOf(o: StoredOrder): RestingOrderRow {
  return { ...toPlaceable(o), remaining: o.remaining_units, filled: o.filled_units, arrival: Number(o.engine_arrival) };
}

export function toPlaceable(o: StoredOrder): PlaceableOrder {
  return {
    hash: o.order_hash, maker: o.maker, taker: o.taker, side: o.side, outcome: o.outcome, orderType: o.order_type,
    price: o.price_ticks, size: o.size_units, makerAmount: o.maker_amount, takerAmount: o.taker_amount,
    expiration: Number(o.expiration), feeRateBps: o.fee_rate_bps, ...(o.post_only ? { postOnly: true as const } : {}),
  };
}

/** What makes a fill the same decision: its order, side of the trade, size and counterparty. */
const DIVERGENCE_KEYS = ['order_hash', 'role', 'size_units', 'counter_order_hash'] as const;
