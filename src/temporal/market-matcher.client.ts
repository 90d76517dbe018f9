/**
 * The API side of the market workflow (`MarketMatcher`). Hand-offs are coalesced per market: while
 * one signal is in flight, further submits queue up and go out together as the next signal, so a
 * busy market costs a few signals per second however many orders arrive. signalWithStart starts
 * the workflow on first use; cancels and status changes are update-with-start (an answer back).
 * A signal about to go out may first wait a few ms (`gatherMs`) for orders that order entry has
 * announced for the same market, so that requests arriving together meet in one market step.
 * A market's hand-offs can be held for a moment (`hold`): its workflow asks for it while it
 * continues as new, and submits then wait (the orders are durable and marked meanwhile).
 */
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { SearchAttributeType, TypedSearchAttributes, defineSearchAttributeKey, type Duration } from '@temporalio/common';
import type { CancelOutcome, HandoffHolder, MarketMatcher, MarketRef } from '../ports/market-matcher';
import { marketKeyOf, marketWorkflowId } from '../matching/market-ids';
import type { MarketStatus } from '../matching/payloads';
import type { StatusReason } from '../ports/status-reasons';
import {
  cancelOrdersUpdate, MARKET_WORKFLOW_TASK_TIMEOUT, MAX_CANCEL_HASHES, setMarketStatusUpdate, submitOrdersSignal, type MarketWorkflowInput, type StatusResult,
} from '../../workflows/definitions';
import type { marketWorkflow } from '../../workflows/market/market.workflow';

/** Hashes per signal: ~70 bytes each, so a signal stays far below the 2 MB payload limit. */
export const MAX_HASHES_PER_SIGNAL = 500;
export const MARKET_WORKFLOW_TYPE = 'marketWorkflow';

const MarketIdKey = defineSearchAttributeKey('MarketId', SearchAttributeType.KEYWORD);

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Lane {
  market: MarketRef;
  hashes: string[];
  waiters: Waiter[];
  sending: boolean;
  /** While set, no signal goes out; the hold ends when it is released or when this timer fires. */
  hold?: NodeJS.Timeout;
  /** When the lane's last signal went out (ms since the epoch). */
  lastSentAt: number;
  /** Announced submits still on their way (`announce`), and what wakes a pump waiting for them. */
  arriving: number;
  arrived?: () => void;
  /** When the oldest hash of `hashes` was queued (ms since the epoch). */
  queuedAt: number;
}

export interface MarketMatcherClient extends MarketMatcher, HandoffHolder {
  setStatus(market: MarketRef, change: { status: string; resolution_outcome?: 0 | 1; actor: string }): Promise<void>;
  /** Same as setStatus, with the workflow's answer. */
  changeStatus(market: MarketRef, change: { status: MarketStatus; resolution_outcome?: 0 | 1; actor: string; expected_from?: MarketStatus }): Promise<StatusResult>;
  /** Signals sent so far (tests and metrics: coalescing makes it far lower than submits). */
  readonly signalsSent: number;
}

export interface MarketMatcherOptions {
  workflowInput?: Partial<MarketWorkflowInput>;
  /**
   * A market's next signal goes out at least this many ms after its previous one; what arrives
   * meanwhile goes with it (0: only while one is in flight). Every signal that finds the workflow
   * idle costs it a whole market step, so under a stream of small requests this trades a few ms
   * of hand-off for fewer, fuller steps.
   */
  lingerMs?: number;
  /**
   * A market's signal waits at most this many ms after its first order was queued for orders
   * announced (`announce`) and not submitted yet, and goes out as soon as none is left: requests
   * that reach the hand-off together share one signal, so their orders meet in one market step.
   * 0: never waits.
   */
  gatherMs?: number;
  /** The workflow task timeout a market's workflow starts with; default MARKET_WORKFLOW_TASK_TIMEOUT. */
  workflowTaskTimeout?: Duration;
}

export function createMarketMatcherClient(client: Client, taskQueue: string, options: MarketMatcherOptions = {}): MarketMatcherClient {
  const lingerMs = options.lingerMs ?? 0;
  const gatherMs = options.gatherMs ?? 0;
  const lanes = new Map<string, Lane>();
  let signalsSent = 0;

  const startOptions = (market: MarketRef) => {
    const ref = { chain_id: market.chain_id, condition_id: market.condition_id.toLowerCase() };
    return {
      workflowId: marketWorkflowId(ref),
      taskQueue,
      args: [{ ...options.workflowInput, market: ref }] as [MarketWorkflowInput],
      typedSearchAttributes: new TypedSearchAttributes([{ key: MarketIdKey, value: marketKeyOf(ref) }]),
      memo: { chain_id: ref.chain_id, condition_id: ref.condition_id },
      workflowTaskTimeout: options.workflowTaskTimeout ?? MARKET_WORKFLOW_TASK_TIMEOUT,
    };
  };

  async function pump(lane: Lane): Promise<void> {
    lane.sending = true;
    try {
      while (lane.hashes.length > 0 && !lane.hold) {
        const wait = lane.lastSentAt + lingerMs - Date.now();
        if (wait > 0) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        const gather = lane.queuedAt + gatherMs - Date.now();
        if (lane.arriving > 0 && gather > 0) {
          await untilArrived(lane, gather);
          continue;
        }
        lane.lastSentAt = Date.now();
        const hashes = [...new Set(lane.hashes.splice(0))];
        const waiters = lane.waiters.splice(0);
        try {
          for (let i = 0; i < hashes.length; i += MAX_HASHES_PER_SIGNAL) {
            await client.workflow.signalWithStart<typeof marketWorkflow, [{ hashes: string[] }]>(MARKET_WORKFLOW_TYPE, {
              ...startOptions(lane.market), signal: submitOrdersSignal, signalArgs: [{ hashes: hashes.slice(i, i + MAX_HASHES_PER_SIGNAL) }],
            });
            signalsSent += 1;
          }
          for (const w of waiters) w.resolve();
        } catch (error) {
          for (const w of waiters) w.reject(error);
        }
      }
    } finally {
      lane.sending = false;
    }
  }

  /** Resolves when the lane's announced submits are all in, or after `ms`. */
  function untilArrived(lane: Lane, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (lane.arrived === done) lane.arrived = undefined;
        resolve();
      }
      lane.arrived = done;
    });
  }

  function laneOf(market: MarketRef): Lane {
    const key = marketKeyOf(market);
    let lane = lanes.get(key);
    if (!lane) {
      lane = { market, hashes: [], waiters: [], sending: false, lastSentAt: 0, arriving: 0, queuedAt: 0 };
      lanes.set(key, lane);
    }
    return lane;
  }

  function submit(market: MarketRef, orderHashes: string[]): Promise<void> {
    if (orderHashes.length === 0) return Promise.resolve();
    const l = laneOf(market);
    return new Promise<void>((resolve, reject) => {
      if (l.hashes.length === 0) l.queuedAt = Date.now();
      for (const h of orderHashes) l.hashes.push(h.toLowerCase());
      l.waiters.push({ resolve, reject });
      if (!l.sending) void pump(l);
    });
  }

  function announce(market: MarketRef): () => void {
    const lane = laneOf(market);
    lane.arriving += 1;
    let withdrawn = false;
    return () => {
      if (withdrawn) return;
      withdrawn = true;
      lane.arriving -= 1;
      if (lane.arriving === 0) lane.arrived?.();
    };
  }

  function hold(market: MarketRef, ms: number): void {
    const lane = laneOf(market);
    clearTimeout(lane.hold);
    lane.hold = undefined;
    if (ms > 0) {
      lane.hold = setTimeout(() => hold(market, 0), ms);
      lane.hold.unref();
    } else if (!lane.sending) {
      void pump(lane);
    }
  }

  async function update<Ret, Arg>(market: MarketRef, def: import('@temporalio/common').UpdateDefinition<Ret, [Arg]>, arg: Arg): Promise<Ret> {
    const start = new WithStartWorkflowOperation<typeof marketWorkflow>(MARKET_WORKFLOW_TYPE, {
      ...startOptions(market), workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return client.workflow.executeUpdateWithStart(def, { args: [arg], startWorkflowOperation: start });
  }

  /**
   * One update per MAX_CANCEL_HASHES hashes (a market maker's cancel-all can name thousands), one
   * after the other, all at the request's own time: the market step decides at that time, however
   * often its workflow task runs (docs/matching.md, "Worker died mid-step").
   */
  const cancel = async (market: MarketRef, wallet: string, orderHashes: string[], reason?: StatusReason): Promise<CancelOutcome> => {
    const outcome: CancelOutcome = { cancelled: [], not_cancelled: [] };
    const requestedAt = Date.now();
    for (let i = 0; i < orderHashes.length; i += MAX_CANCEL_HASHES) {
      const hashes = orderHashes.slice(i, i + MAX_CANCEL_HASHES);
      const part = await update(market, cancelOrdersUpdate, { wallet, hashes, requested_at: requestedAt, ...(reason ? { reason } : {}) });
      outcome.cancelled.push(...part.cancelled);
      outcome.not_cancelled.push(...part.not_cancelled);
    }
    return outcome;
  };

  const changeStatus = (market: MarketRef, change: { status: MarketStatus; resolution_outcome?: 0 | 1; actor: string; expected_from?: MarketStatus }) =>
    update(market, setMarketStatusUpdate, { ...change, requested_at: Date.now() });

  return {
    submit,
    announce,
    hold,
    cancel,
    changeStatus,
    async setStatus(market, change) {
      await changeStatus(market, change as { status: MarketStatus; resolution_outcome?: 0 | 1; actor: string });
    },
    get signalsSent() {
      return signalsSent;
    },
  };
}
