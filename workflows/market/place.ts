/** A placement step: a batch of handed-over orders, loaded, put through the engine, written once. */
import { log, patched, workflowInfo } from '@temporalio/workflow';
import { isEngineError, type EngineEvent, type EngineOrder } from '../../src/engine';
import type { DirectEnd, MarketStatus, PlaceableOrder } from '../../src/matching/payloads';
import { placeablesOf } from '../../src/matching/payloads';
import type { StatusReason } from '../../src/ports/status-reasons';
import { STEP_JOURNAL } from '../patches';
import { step } from './activities';
import { secondsOf } from './clock';
import { putBack } from './queue';
import type { LoadedRun } from './run-state';
import { write } from './write-step';

export async function place(run: LoadedRun, batch: string[]): Promise<void> {
  const { book, market } = run;
  const stepId = patched(STEP_JOURNAL) ? `${workflowInfo().runId}:${++run.placementSteps}` : undefined;
  const load = await step().loadOrdersForPlacement({ market, hashes: batch, ...(stepId ? { step: stepId } : {}) });
  // A step claimed by a lost attempt of this task is decided over the same hashes at the same time.
  const at = load.decided?.at ?? Date.now();
  const hashes = load.decided ? batch.slice(0, load.decided.count) : batch;
  // Not this step's after all: they are taken again later (DEDUPED_HANDOFFS must not skip them).
  if (hashes.length < batch.length) putBack(run, batch.slice(hashes.length));
  const now = secondsOf(at);
  const events: EngineEvent[] = [];
  const placed = new Set<string>();
  const direct: DirectEnd[] = [];
  const placeables = placeablesOf(load);
  for (const o of placeables) {
    if (run.info.status !== 'OPEN') {
      direct.push({ hash: o.hash, status: 'CANCELLED', reason: notOpenReason(run.info.status) });
      continue;
    }
    if (book.order(o.hash)) continue; // already resting: a re-delivery
    let engineOrder: EngineOrder;
    try {
      engineOrder = toEngineOrder(o);
    } catch {
      // A malformed record must not wedge the market (a throw here would fail every task).
      direct.push({ hash: o.hash, status: 'MATCH_FAILED', reason: 'INVALID_ORDER' });
      continue;
    }
    try {
      for (const e of book.place(engineOrder, now)) events.push(e);
      placed.add(o.hash);
    } catch (error) {
      if (!isEngineError(error)) throw error;
      log.warn('order refused by the engine', { hash: o.hash, code: error.code, message: error.message });
      direct.push({ hash: o.hash, status: 'MATCH_FAILED', reason: 'INVALID_ORDER' });
    }
  }
  const claim = stepId ? { id: stepId, runId: workflowInfo().runId, hashes, placeable: placeables.map((o) => o.hash) } : undefined;
  await write(run, events, placed, direct, { at, claim });
}

/** Why an order reaching a market that does not trade ends. */
function notOpenReason(status: MarketStatus): StatusReason {
  if (status === 'CLOSED') return 'MARKET_CLOSED';
  if (status === 'RESOLVED') return 'MARKET_RESOLVED';
  return 'MARKET_NOT_ACTIVE';
}

function toEngineOrder(o: PlaceableOrder): EngineOrder {
  return {
    hash: o.hash, maker: o.maker, taker: o.taker, side: o.side, outcome: o.outcome, orderType: o.orderType, price: o.price,
    size: BigInt(o.size), makerAmount: BigInt(o.makerAmount), takerAmount: BigInt(o.takerAmount),
    expiration: o.expiration, feeRateBps: o.feeRateBps, postOnly: o.postOnly === true,
  };
}
