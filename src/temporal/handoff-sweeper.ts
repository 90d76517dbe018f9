/**
 * Recovery of lost hand-offs: an order persisted with handoff PENDING whose `submit` never reached
 * the market workflow (the API died in between) is handed over again. The workflow skips orders it
 * already took, so re-sending is always safe. Runs in the worker process; finds the orders through
 * their hand-off markers (src/matching/handoff-markers.ts).
 */
import type { MarketMatcher } from '../ports/market-matcher';
import type { Logger } from '../logging/logger';
import type { MatchingCollections } from '../matching/collections';
import { MarkerSightings } from './marker-sightings';
import { ResendSchedule } from './resend-schedule';

export interface HandoffSweeperOptions {
  collections: MatchingCollections;
  matcher: MarketMatcher;
  logger: Logger;
  /** Markers seen for less than this are still in their normal hand-off; default 2000 ms. */
  olderThanMs?: number;
  /** A marker whose order never appeared is dropped once seen for this long; default ORPHAN_MARKER_MS. */
  orphanAfterMs?: number;
  intervalMs?: number;
  /** Orders per sweep. */
  limit?: number;
  /** Longest wait between two hand-offs of one order that is still not taken; default 30 s. */
  maxResendMs?: number;
}

/** A marker whose order never appeared is dropped once seen for this long (the placing request died in between). */
export const ORPHAN_MARKER_MS = 60_000;

export interface HandoffSweeper {
  /** One pass; resolves with the number of orders handed over again. */
  sweepOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startHandoffSweeper(options: HandoffSweeperOptions): HandoffSweeper {
  const { collections: c, matcher, logger } = options;
  const olderThanMs = options.olderThanMs ?? 2_000;
  const orphanAfterMs = options.orphanAfterMs ?? ORPHAN_MARKER_MS;
  const limit = options.limit ?? 2_000;
  // Markers age from this process's first sight of them, by its own clock (marker-sightings.ts).
  const sightings = new MarkerSightings();
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  // An order not taken is sent again once it is 2 s old, then 4 s, 8 s, ... after the send before, at most every 30 s.
  const schedule = new ResendSchedule(olderThanMs, options.maxResendMs ?? 30_000);
  /**
   * Where the next pass goes on (the last `_id` of a full page), or undefined: from the first.
   * Each pass reads one page after the one before, wrapping around, so that more than a page of
   * markers that stay (a market stuck or far behind) cannot hide newer lost hand-offs of other
   * markets: every marker is looked at within (markers / limit) passes.
   */
  let after: string | undefined;

  /** Hands the given orders over again, per market. */
  async function resubmit(rows: { order_hash: string; chain_id: number; condition_id: string; market_key: string }[]): Promise<void> {
    const byMarket = new Map<string, { chain_id: number; condition_id: string; hashes: string[] }>();
    for (const o of rows) {
      const lane = byMarket.get(o.market_key) ?? { chain_id: o.chain_id, condition_id: o.condition_id, hashes: [] };
      lane.hashes.push(o.order_hash);
      byMarket.set(o.market_key, lane);
    }
    await Promise.all([...byMarket.values()].map(async (m) => {
      logger.warn({ market: `${m.chain_id}-${m.condition_id}`, orders: m.hashes.length }, 'handing over orders whose hand-off was lost');
      await matcher.submit({ chain_id: m.chain_id, condition_id: m.condition_id }, m.hashes);
    }));
  }

  /**
   * One pass over a page of hand-off markers: orders still PENDING whose markers this process has
   * seen for `olderThanMs` are handed over again when their schedule says so; markers of orders
   * that were taken (or ended), or whose order never got written, go. Resolves with the number of
   * orders handed over.
   */
  async function sweepOnce(): Promise<number> {
    const from = after;
    const markers = await c.handoffs.find(from === undefined ? {} : { _id: { $gt: from } }, { projection: { _id: 1 } })
      .sort({ _id: 1 }).limit(limit).toArray();
    const full = markers.length === limit;
    after = full ? markers[markers.length - 1]._id : undefined;
    const now = Date.now();
    sightings.see(markers.map((m) => m._id), now, { after: from, upTo: full ? after : undefined });
    const aged = markers.filter((m) => sightings.ageOf(m._id, now) >= olderThanMs);
    if (aged.length === 0) {
      if (!from && !full) schedule.keepOnly(new Set());
      return 0;
    }
    const orders = await c.orders.find({ _id: { $in: aged.map((m) => m._id) } }, { projection: { order_hash: 1, chain_id: 1, condition_id: 1, market_key: 1, handoff: 1, status: 1 } }).toArray();
    const byHash = new Map(orders.map((o) => [o.order_hash, o]));
    const pending = orders.filter((o) => o.handoff === 'PENDING' && o.status === 'OPEN');
    const lostHashes = new Set(pending.map((o) => o.order_hash));
    // Every marker is in this page: the schedule forgets the orders whose markers went.
    if (!from && !full) schedule.keepOnly(lostHashes);
    const lost = pending.filter((o) => schedule.due(o.order_hash, now));
    for (const o of lost) schedule.sent(o.order_hash, now);
    const done = aged.filter((m) => {
      if (!byHash.has(m._id)) return sightings.ageOf(m._id, now) >= orphanAfterMs; // the order was never written (API died between)
      return !lostHashes.has(m._id);
    });
    await resubmit(lost);
    if (done.length > 0) await c.handoffs.deleteMany({ _id: { $in: done.map((m) => m._id) } });
    return lost.length;
  }

  /**
   * Orders written before hand-off markers existed have none: one query over every order at start
   * finds any of those still PENDING (indexed on MongoDB, a single scan on FerretDB).
   */
  async function sweepUnmarked(): Promise<number> {
    const cutoff = new Date(Date.now() - olderThanMs);
    const rows = await c.orders
      .find({ handoff: 'PENDING', status: 'OPEN', created_at: { $lt: cutoff } }, { projection: { order_hash: 1, chain_id: 1, condition_id: 1, market_key: 1 } })
      .limit(limit)
      .toArray();
    // Orders with a marker are the marker sweep's, on its schedule.
    const marked = new Set((await c.handoffs.find({ _id: { $in: rows.map((r) => r.order_hash) } }, { projection: { _id: 1 } }).toArray()).map((m) => m._id));
    const unmarked = rows.filter((r) => !marked.has(r.order_hash));
    await resubmit(unmarked);
    return unmarked.length;
  }

  running = sweepUnmarked().catch((error: unknown) => {
    logger.error({ err: error }, 'hand-off sweep of unmarked orders failed');
  });
  const timer = setInterval(() => {
    running = running.then(() => (stopped ? 0 : sweepOnce())).catch((error: unknown) => {
      logger.error({ err: error }, 'hand-off sweep failed');
    });
  }, options.intervalMs ?? 1_000);

  return {
    sweepOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
