/**
 * A run's start: the market's state and its resting orders from MongoDB, rebuilt into the engine
 * (first start and after continue-as-new). A carried book (RESTING_CARRIED) loads by `_id` beside
 * the market state, both local activities: one task, no query over the orders collection.
 */
import { patched, workflowInfo } from '@temporalio/workflow';
import { Engine, MAX_MAKERS_PER_TAKER, SNAPSHOT_VERSION } from '../../src/engine';
import type { EngineCounters, RestingOrderRow, RestingPage } from '../../src/matching/payloads';
import { MAKERS_PER_TAKER_CAP } from '../patches';
import { db, local } from './activities';
import { CARRIED_RESTING_PAGE } from './limits';
import type { LoadedRun, MarketRun } from './run-state';

/** Loads the run's market and book; `traded`: the market has stored counters (it traded before). */
export async function loadBook(run: MarketRun): Promise<{ run: LoadedRun; traded: boolean }> {
  const { input, market, key } = run;
  // The previous run held the market's hand-offs while it continued as new (HELD_HANDOFFS): this
  // run takes them from now on, while it loads.
  const released = input.handoffsHeld ? local.holdHandoffs({ market, holdMs: 0 }) : undefined;
  const carried = input.resting ? loadCarriedResting(key, input.resting) : undefined;
  const state = carried
    ? await local.loadMarketState(market, { runId: workflowInfo().runId })
    : await db.loadMarketState(market, { runId: workflowInfo().runId });
  run.info = state.info;
  if (input.lastPrice === undefined) run.lastPrice = state.lastPrice;
  const restingRows = carried ? await carried : await loadRestingOrders(key);
  const book = restoreEngine(key, input.counters ?? state.counters, restingRows, patched(MAKERS_PER_TAKER_CAP) ? MAX_MAKERS_PER_TAKER : Number.POSITIVE_INFINITY);
  run.book = book;
  await released;
  return { run: run as LoadedRun, traded: state.counters !== null };
}

/** The market's resting orders in MongoDB, in arrival order, found by market and status a page at a time. */
async function loadRestingOrders(key: string): Promise<RestingOrderRow[]> {
  const orders: RestingOrderRow[] = [];
  let after = 0;
  for (;;) {
    const page = await db.loadRestingPage({ marketKey: key, afterArrival: after, limit: 1_000 });
    for (const o of page.orders) orders.push(o);
    if (page.next === null) break;
    after = page.next;
  }
  return orders;
}

/** The orders of `hashes` (a previous run's resting list) that still rest, in arrival order. */
async function loadCarriedResting(key: string, hashes: string[]): Promise<RestingOrderRow[]> {
  const pages: Promise<RestingPage>[] = [];
  for (let i = 0; i < hashes.length; i += CARRIED_RESTING_PAGE) {
    pages.push(local.loadCarriedResting({ marketKey: key, hashes: hashes.slice(i, i + CARRIED_RESTING_PAGE) }));
  }
  const orders = (await Promise.all(pages)).flatMap((page) => page.orders);
  return orders.sort((a, b) => a.arrival - b.arrival);
}

/** Rebuilds the engine from the market's resting orders, in arrival order (FIFO kept). */
function restoreEngine(key: string, counters: EngineCounters | null, orders: RestingOrderRow[], maxMakersPerTaker: number): Engine {
  const c = counters ?? { seq: 0, bookSeq: 0, tradeSeq: 0, arrival: 0 };
  const arrival = orders.reduce((max, o) => Math.max(max, o.arrival), c.arrival);
  return Engine.restore({ version: SNAPSHOT_VERSION, marketId: key, ...c, arrival, orders }, { maxMakersPerTaker });
}
