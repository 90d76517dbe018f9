/**
 * Everything one run of a market workflow holds, in one object passed to each part: the command
 * queue, the book, and the run's settlement and roll-over state. Plain fields, no closures, so a
 * reader sees in one place what a step may change.
 */
import type { CancelOutcome } from '../../src/ports/market-matcher';
import type { Engine } from '../../src/engine';
import { marketKeyOf, type MarketRef } from '../../src/matching/market-ids';
import type { MarketInfo, TradeWrite } from '../../src/matching/payloads';
import type { CancelOrders, MarketWorkflowInput, RemoveOrders, ReturnOrders, StatusChange, StatusResult } from '../definitions';
import { DEFAULT_HISTORY_LIMIT } from './limits';

/** What handlers enqueue and the main loop applies, one at a time. */
export type Command =
  | { kind: 'place'; hashes: string[] }
  | { kind: 'cancel'; id: number; request: CancelOrders }
  | { kind: 'remove'; request: RemoveOrders }
  | { kind: 'return'; request: ReturnOrders }
  | { kind: 'status'; id: number; change: StatusChange };

/** What settlement needs of a trade: its id and its taker order (one `matchOrders` per taker). */
export type SettlingTrade = Pick<TradeWrite, 'tradeId'> & { taker: Pick<TradeWrite['taker'], 'orderHash'> };

/**
 * Trades written and waiting for a settlement child (SETTLEMENT_COALESCED). `found`: looked up
 * from its fills (RECOVER_PENDING_SETTLEMENTS), a child may settle it already.
 */
export interface WaitingSettlement {
  batchId: string;
  trades: SettlingTrade[];
  found?: boolean;
}

export interface MarketRun {
  readonly input: MarketWorkflowInput;
  readonly market: MarketRef;
  readonly key: string;
  readonly historyLimit: number;
  readonly queue: Command[];
  /** Answers of cancels and status changes, by command id, until their handler takes them. */
  readonly results: Record<number, CancelOutcome | StatusResult>;
  nextId: number;
  /** Status changes so far, across runs: deterministic audit ids. */
  changes: number;
  lastPrice: number | null;
  /** Set once the run has rebuilt its book from MongoDB. */
  book: Engine | undefined;
  info: MarketInfo;
  /**
   * The latest time a step wrote at (ms): a request's clock never goes back before it. Carried
   * across continue-as-new (a request queued in one run and decided in the next).
   */
  lastWriteAt: number;
  /** Placement steps of this run (STEP_JOURNAL): a retried workflow task numbers them the same way. */
  placementSteps: number;
  /** Hashes this run took (DEDUPED_HANDOFFS), oldest first, the newest REMEMBERED_TAKEN of them. */
  readonly taken: Set<string>;
  /** Settlement starts not awaited yet (SETTLEMENT_START_ASYNC); all are awaited before continue-as-new. */
  readonly starting: Promise<unknown>[];
  /** Batches waiting for a settlement child, oldest first. */
  readonly waitingSettlements: WaitingSettlement[];
  /** Children of this run started and not finished. */
  settling: number;
  /** A step's write is under way: its batch is not complete, so none may start. */
  writing: boolean;
  /** The run is due to continue as new; `quiet` (SETTLED_BEFORE_CONTINUE): it waits for its children first. */
  rolling: boolean;
  quiet: boolean;
  /** BOUNDED_ROLL: a quiet run continues as new by this workflow time (ms) even with children under way. */
  rollBy: number;
  /** RESTING_CARRIED, recorded where the run first wants a new run (its last task stays free of markers). */
  carriesResting: boolean;
  /** Decided when the run stops taking commands: its waiting batches go to the next run, none starts here. */
  carries: boolean;
}

/** A run whose book is loaded: every step works on one. */
export type LoadedRun = MarketRun & { book: Engine };

/** A new run, its queue holding what the previous run handed over (removals, returns, then placements). */
export function newRun(input: MarketWorkflowInput): MarketRun {
  const market = { chain_id: input.market.chain_id, condition_id: input.market.condition_id.toLowerCase() };
  const queue: Command[] = [];
  for (const request of input.pendingRemovals ?? []) queue.push({ kind: 'remove', request });
  for (const request of input.pendingReturns ?? []) queue.push({ kind: 'return', request });
  if (input.pending?.length) queue.push({ kind: 'place', hashes: input.pending });
  return {
    input, market, key: marketKeyOf(market), historyLimit: input.historyLimit ?? DEFAULT_HISTORY_LIMIT, queue, results: {}, nextId: 1,
    changes: input.changes ?? 0, lastPrice: input.lastPrice ?? null, book: undefined,
    info: { found: false, status: 'PAUSED', resolution_outcome: null, decimals: 18, fee_rate_bps: 0 },
    lastWriteAt: input.lastWriteAt ?? 0, placementSteps: 0, taken: new Set<string>(),
    starting: [], waitingSettlements: [], settling: 0, writing: false,
    rolling: false, quiet: false, rollBy: Infinity, carriesResting: false, carries: false,
  };
}
