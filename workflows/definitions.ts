/**
 * Messages of the workflows, imported by the API side (src/temporal/) and the workflows alike.
 * Names are wire contracts: renaming one breaks running workflows.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { CancelOutcome } from '../src/ports/market-matcher';
import type { MarketRef } from '../src/matching/market-ids';
import type { EngineCounters, MarketStatus } from '../src/matching/payloads';
import type { CarriedSettlement } from '../src/matching/pending-settlements';
import type { StatusReason } from '../src/ports/status-reasons';

/**
 * How long one workflow task of a market may take (Temporal's default is 10 s; continue-as-new
 * keeps it). A worker that takes a market over without it in its cache replays the run's whole
 * history in its first task: ~4,700 events took 7.7 s and more on the development machine, and
 * each attempt past 10 s timed out and started the replay over (three in a row after a restart
 * in the e2e bench). The cost: a worker killed in the middle of a task leaves its
 * market waiting up to this long before another attempt.
 */
export const MARKET_WORKFLOW_TASK_TIMEOUT = '30s';

export interface MarketWorkflowInput {
  market: MarketRef;
  /** Carried over continue-as-new: engine counters (the resting orders are reloaded from MongoDB, `resting`). */
  counters?: EngineCounters;
  /**
   * Order hashes received but not yet placed when the previous run continued as new, each once,
   * at most `maxCarriedPending` of them (the rest keep their hand-off markers: the sweeper hands
   * them over again).
   */
  pending?: string[];
  /** Removals received but not yet applied when the previous run continued as new. */
  pendingRemovals?: RemoveOrders[];
  /** Returns from settlement received but not yet applied when the previous run continued as new. */
  pendingReturns?: ReturnOrders[];
  /** Status-change counter, for deterministic audit ids across runs. */
  changes?: number;
  /** YES ticks of the last trade (the ticker's last price). */
  lastPrice?: number | null;
  /**
   * The previous run's last step time (workflow ms): requests are decided no earlier (REQUEST_CLOCK),
   * so an order's end is never dated before its `book_added_at` across a roll. Absent: 0.
   */
  lastWriteAt?: number;
  /**
   * Settlement batches whose trades the previous run wrote but did not settle (it waited for its
   * children before continuing as new, and started no new one): `[trade id, taker order hash]`.
   */
  pendingSettlements?: CarriedSettlement[];
  /**
   * The previous run's resting orders, oldest first (RESTING_CARRIED): this run loads them by hash
   * instead of querying the orders collection. Absent: the book is found by the query.
   */
  resting?: string[];
  /** The previous run held the market's hand-offs while it continued as new: this run releases them. */
  handoffsHeld?: boolean;
  /** Continue as new once the history has this many events (tests lower it); default 4,000. */
  historyLimit?: number;
  /** The most resting orders a run hands the next one as a list (tests lower it); default 5,000, deeper books are queried. */
  maxCarriedResting?: number;
  /** The most received-but-unplaced hashes a run hands the next one (tests lower it); default 5,000. */
  maxCarriedPending?: number;
  /** How long a run due to continue as new waits for its settlement children (tests set it); default 5 s. */
  rollWaitMs?: number;
  /** First retry delay of settlement sends (tests shorten it); default 2 s, doubling. */
  settlementRetryDelayMs?: number;
}

export interface SubmitOrders {
  hashes: string[];
}

/** Hashes per cancel update (the market workflow's validator refuses more); callers send more in several. */
export const MAX_CANCEL_HASHES = 1_000;

export interface CancelOrders {
  wallet: string;
  hashes: string[];
  /**
   * When the cancel was asked for (ms since the epoch, the API's clock). The step decides at this
   * time (an order past its expiration then is expired instead), so a step decided again after a
   * lost workflow task decides as the lost attempt did (docs/matching.md, "Worker died mid-step").
   */
  requested_at?: number;
  /** Why the orders end (src/orders/status-reasons.ts); default USER_CANCEL. */
  reason?: StatusReason;
}

export interface StatusChange {
  status: MarketStatus;
  resolution_outcome?: 0 | 1;
  actor: string;
  /** The status the caller saw: the update is rejected when the market no longer has it. */
  expected_from?: MarketStatus;
  /** When the change was asked for (ms since the epoch): the step's clock, as for `CancelOrders`. */
  requested_at?: number;
}

export interface StatusResult {
  status: MarketStatus;
  resolution_outcome: 0 | 1 | null;
  /** Resting orders the change cancelled (CLOSED, RESOLVED). */
  cancelled: number;
  /** Set (internally) when the change was refused; the update then fails with this message. */
  refused?: string;
}

/**
 * Orders to take off the book without an owner check and without an answer: cancels seen on chain
 * (CANCELLED) and orders whose settlement failed for good (MATCH_FAILED).
 */
export interface RemoveOrders {
  hashes: string[];
  /** Why (src/orders/status-reasons.ts); NONCE_BUMP is NONCE_BUMPED's older name, still in recorded histories. */
  reason: StatusReason | 'NONCE_BUMP';
  /** How they end; default MATCH_FAILED for SETTLEMENT_FAILED, else CANCELLED. */
  status?: 'CANCELLED' | 'MATCH_FAILED';
  /** The sender's workflow time (ms since the epoch): the step's clock, as for `CancelOrders`. */
  at?: number;
}

/**
 * What settlement gives back after a match failed because of some of its orders (leg blame): the
 * other orders' units, to put back (a maker rests again at its place, a taker is matched again),
 * and the blamed orders still resting, to end MATCH_FAILED with their reason.
 */
export interface ReturnOrders {
  returned: { hash: string; units: string; role: 'maker' | 'taker' }[];
  failed: { orderHash: string; reason: string }[];
  /** The sender's workflow time (ms since the epoch): the step's clock, as for `RemoveOrders`. */
  at?: number;
}

export interface MarketView {
  /** False while a run is still rebuilding its book (then the other fields are not meaningful). */
  ready: boolean;
  status: MarketStatus;
  resting: number;
  counters: EngineCounters;
  queued: number;
  bestBid: number | null;
  bestAsk: number | null;
}

export const submitOrdersSignal = defineSignal<[SubmitOrders]>('submitOrders');
export const removeOrdersSignal = defineSignal<[RemoveOrders]>('removeOrders');
export const returnOrdersSignal = defineSignal<[ReturnOrders]>('returnOrders');

/** A wallet's heartbeat (workflows/heartbeat.workflow.ts): `timeout_s` from its arrival, 0 disarms. */
export interface Heartbeat {
  timeout_s: number;
}
export const heartbeatSignal = defineSignal<[Heartbeat]>('heartbeat');
export const cancelOrdersUpdate = defineUpdate<CancelOutcome, [CancelOrders]>('cancelOrders');
export const setMarketStatusUpdate = defineUpdate<StatusResult, [StatusChange]>('setMarketStatus');
export const marketViewQuery = defineQuery<MarketView>('marketView');
/** Wire shapes of the book, YES ticks and base units as strings (no bigint in payloads). */
export const marketDepthQuery = defineQuery<{ ready: boolean; seq: number; bids: { price: number; remaining: string }[]; asks: { price: number; remaining: string }[] }, [number?]>('marketDepth');
