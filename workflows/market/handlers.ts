/**
 * The market workflow's signals, updates and queries. Handlers only enqueue (and updates wait for
 * their answer): the main loop applies the queue one command at a time, so a cancel racing a match
 * has exactly one winner.
 */
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import type { CancelOutcome } from '../../src/ports/market-matcher';
import type { MarketStatus } from '../../src/matching/payloads';
import { isStatusReason } from '../../src/ports/status-reasons';
import {
  cancelOrdersUpdate, MAX_CANCEL_HASHES, marketDepthQuery, marketViewQuery, removeOrdersSignal, returnOrdersSignal, setMarketStatusUpdate, submitOrdersSignal,
  type StatusResult,
} from '../definitions';
import { statusRefusal } from './change-status';
import type { MarketRun } from './run-state';

const STATUSES: readonly MarketStatus[] = ['OPEN', 'CLOSED', 'RESOLVED', 'PAUSED', 'SEEDING'];

/** The answer the main loop leaves for command `id`, once it is there. */
async function answer<T extends CancelOutcome | StatusResult>(run: MarketRun, id: number): Promise<T> {
  await condition(() => run.results[id] !== undefined);
  const result = run.results[id] as T;
  delete run.results[id];
  return result;
}

export function setHandlers(run: MarketRun): void {
  const { queue } = run;
  setHandler(submitOrdersSignal, ({ hashes }) => {
    if (Array.isArray(hashes) && hashes.length > 0) queue.push({ kind: 'place', hashes: hashes.map((h) => String(h).toLowerCase()) });
  });
  setHandler(removeOrdersSignal, (request) => {
    queue.push({ kind: 'remove', request });
  });
  setHandler(returnOrdersSignal, (request) => {
    queue.push({ kind: 'return', request });
  });
  setHandler(cancelOrdersUpdate, async (request) => {
    const id = run.nextId++;
    queue.push({ kind: 'cancel', id, request });
    return answer<CancelOutcome>(run, id);
  }, {
    validator: (request) => {
      if (!request || typeof request.wallet !== 'string' || !Array.isArray(request.hashes)) throw new Error('cancel needs {wallet, hashes}');
      if (request.hashes.length > MAX_CANCEL_HASHES) throw new Error(`at most ${MAX_CANCEL_HASHES} hashes per cancel`);
      if (request.reason !== undefined && !isStatusReason(request.reason)) throw new Error(`unknown cancel reason ${String(request.reason)}`);
    },
  });
  setHandler(setMarketStatusUpdate, async (change) => {
    const id = run.nextId++;
    queue.push({ kind: 'status', id, change });
    const result = await answer<StatusResult>(run, id);
    if (result.refused) throw ApplicationFailure.nonRetryable(result.refused, 'VALIDATION_ERROR');
    return result;
  }, {
    validator: (change) => {
      if (!change || !STATUSES.includes(change.status)) throw new Error(`unknown market status ${String(change?.status)}`);
      if (change.status === 'RESOLVED' && change.resolution_outcome !== 0 && change.resolution_outcome !== 1) {
        throw new Error('RESOLVED needs resolution_outcome 0 or 1');
      }
      // Before the run has loaded its market, the main loop checks the rest (statusRefusal).
      const refusal = run.book === undefined ? null : statusRefusal(run, change);
      if (refusal) throw new Error(refusal);
    },
  });
  setHandler(marketViewQuery, () => ({
    ready: run.book !== undefined,
    status: run.info.status,
    resting: run.book?.restingCount ?? 0,
    counters: run.book ? { ...run.book.counters } : { seq: 0, bookSeq: 0, tradeSeq: 0, arrival: 0 },
    queued: queue.length,
    bestBid: run.book?.bestBid() ?? null,
    bestAsk: run.book?.bestAsk() ?? null,
  }));
  setHandler(marketDepthQuery, (n) => {
    const depth = run.book?.depth(n ?? 50) ?? { seq: 0, bids: [], asks: [] };
    const wire = (levels: { price: number; remaining: bigint }[]) => levels.map((l) => ({ price: l.price, remaining: l.remaining.toString() }));
    return { ready: run.book !== undefined, seq: depth.seq, bids: wire(depth.bids), asks: wire(depth.asks) };
  });
}
