/**
 * One long-lived workflow per market (`market-{chain_id}-{condition_id}`): the only writer of the
 * market's book. Placement, cancels, expiry and status changes are queued by the handlers and
 * applied one at a time by the main loop, through the pure engine, so a cancel racing a match has
 * exactly one winner. Each step ends with ONE idempotent bulk-write activity. The book is rebuilt
 * from MongoDB at the start of every run (first start and after continue-as-new).
 */
import { defineSearchAttributeKey, SearchAttributeType, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  allHandlersFinished, ApplicationFailure, type ChildWorkflowOptions, condition, continueAsNew, log, ParentClosePolicy, patched, proxyActivities,
  proxyLocalActivities, setHandler, sleep, startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { CancelOutcome } from '../src/contracts/market-matcher';
import { Engine, isEngineError, MAX_MAKERS_PER_TAKER, SNAPSHOT_VERSION, type EngineEvent, type EngineOrder } from '../src/engine';
import { foldEvents } from '../src/matching/batch-write';
import { placeablesOf } from '../src/matching/payloads';
import { marketKeyOf, settlementBatchIdOf, settlementWorkflowId } from '../src/matching/market-ids';
import { isStatusReason, statusReasonFor, type StatusReason } from '../src/orders/status-reasons';
import type { CarriedSettlement, PendingSettlementsPage } from '../src/matching/pending-settlements';
import type { DirectEnd, EngineCounters, MarketInfo, MarketStatus, PlaceableOrder, RestingOrderRow, RestingPage, SettlementInput, StepInputs, TradeWrite } from '../src/matching/payloads';
import type { MarketActivities } from '../activities/market.activities';
import { DB_STEP, DB_STEP_LOCAL } from './activity-presets';
import {
  cancelOrdersUpdate, MAX_CANCEL_HASHES, marketDepthQuery, marketViewQuery, removeOrdersSignal, returnOrdersSignal, setMarketStatusUpdate, submitOrdersSignal,
  type CancelOrders, type MarketWorkflowInput, type RemoveOrders, type ReturnOrders, type StatusChange, type StatusResult,
} from './definitions';
import { applyReturn } from './market-returns';
import { settlementWorkflow } from './settlement.workflow';

const db = proxyActivities<MarketActivities>(DB_STEP);
const local = proxyLocalActivities<MarketActivities>(DB_STEP_LOCAL);

/**
 * Patch id (workflow versioning): a placement step's two database activities run as local
 * activities, in the workflow's own worker: no task-queue round trip per activity, and no waiting
 * behind settlement activities on the shared queue.
 */
export const LOCAL_STEP_ACTIVITIES = 'local-step-activities';

/** The activities of a placement step: local ones in runs that have the patch. */
function step(): Pick<MarketActivities, 'loadOrdersForPlacement' | 'applyMatchBatch'> {
  return patched(LOCAL_STEP_ACTIVITIES) ? local : db;
}
const MARKET_ID = defineSearchAttributeKey('MarketId', SearchAttributeType.KEYWORD);
const ORDER_HASH = defineSearchAttributeKey('OrderHash', SearchAttributeType.KEYWORD);

/** Patch id (workflow versioning): one settlement child per step instead of one per taker order. */
export const SETTLEMENT_PER_STEP = 'settlement-per-step';

/**
 * Patch id (workflow versioning): a step does not wait for its settlement child to start; the next
 * step runs at once, and every start is awaited before continue-as-new. Waiting cost every trading
 * step a workflow task round trip through the server (~0.1-0.4 s under load).
 */
export const SETTLEMENT_START_ASYNC = 'settlement-start-async';

/**
 * Patch id (workflow versioning): settlements are coalesced. At most MAX_SETTLING settlement
 * children of a run are under way; the trades of the steps in between wait, and go out together in
 * the next child when one finishes (batches of whole steps, up to MAX_SETTLEMENT_TRADES trades).
 * Runs recorded before started one child per trading step: under load, 3 children a second, each
 * with its activities and workflow tasks, for the same transactions.
 */
export const SETTLEMENT_COALESCED = 'settlement-coalesced';
/** Settlement children of one run under way at once: a slow or retrying one does not hold up the rest. */
export const MAX_SETTLING = 2;
/** A waiting settlement batch takes further steps while below this many trades (bounds its input and memo). */
export const MAX_SETTLEMENT_TRADES = 500;
/**
 * Taker orders a settlement's memo lists (the first ones; `takers_total` counts them all): 20 keep
 * the memo under the 2 KB at which the SDK and the server warn, once per settlement. A batch of 500
 * trades listed ~33 KB. Every fill names its batch (`settlement_batch`) for the rest.
 */
export const MEMO_TAKERS = 20;

/**
 * Patch id (workflow versioning): a run due to continue as new first lets its settlement children
 * finish (it keeps matching meanwhile, and starts no new child: the trades of its last steps are
 * carried into the next run, which settles them). Runs recorded before started every waiting batch
 * right before continuing as new, so children were under way during its last workflow task: when
 * that task failed (a signal arrived during it, UNHANDLED_COMMAND), each retry replayed the whole
 * history for seconds, a child finished meanwhile and failed it again (e2e bench, store read back).
 */
export const SETTLED_BEFORE_CONTINUE = 'settled-before-continue';
/**
 * Patch id (workflow versioning): a quiet run (SETTLED_BEFORE_CONTINUE) holds the market's hand-offs
 * in every process that sends them before it continues as new, waits HANDOFF_DRAIN_MS for the
 * signals already under way, and continues as new in the task that wait ends; the next run
 * releases the hold as it starts. Without it, hand-off signals (~25 a second from single-order
 * POSTs) landed in nearly every such task and failed it (UNHANDLED_COMMAND), and each retry
 * replayed the whole history for seconds while more landed (e2e bench, store read back).
 */
export const HELD_HANDOFFS = 'held-handoffs-continue';
/** The hold's bound, should the next run's release be lost: long enough for a retried task's replay. */
export const HANDOFF_HOLD_MS = 10_000;
/** How long a run waits after its hold for the hand-off signals already under way. */
export const HANDOFF_DRAIN_MS = 100;
/**
 * Patch id (workflow versioning): a quiet run waits for its settlement children at most
 * MAX_ROLL_WAIT_MS, then continues as new anyway, still carrying its waiting batches and holding
 * the hand-offs (the children under way finish on their own); and its hold is an ordinary
 * activity that waits HANDOFF_DRAIN_MS before it returns, so that its completion starts the last
 * task. Runs recorded before waited for every child (in the e2e bench, 46 s once, until they
 * carried MAX_CARRIED_TRADES and continued the old way) and drained with a 100 ms timer, which
 * the dev server fired 700 ms late.
 */
export const BOUNDED_ROLL = 'bounded-roll';
/** How long a quiet run waits for its settlement children before it continues as new anyway. */
export const MAX_ROLL_WAIT_MS = 5_000;
/**
 * A run that has waited this many times its history bound for its children continues as new
 * anyway (a settlement retrying for minutes must not let the history grow without bound).
 */
const OVERDUE_FACTOR = 2;
/** ... or once it carries this many trades (~150 bytes each in the next run's input, far below 2 MB). */
export const MAX_CARRIED_TRADES = 4_000;

/** Orders placed per step: bounds the step's activity payload (well under 2 MB). */
export const MAX_PLACE_BATCH = 200;
/**
 * Patch id (workflow versioning): steps take up to MAX_PLACE_BATCH_WIDE orders. A backlogged
 * market spent a third of each 200-order step on what every step costs whatever its size (load
 * query, book levels, counters, ticker, workflow task round trips).
 */
export const WIDE_PLACE_BATCH = 'wide-place-batch';
export const MAX_PLACE_BATCH_WIDE = 400;
/**
 * Patch id (workflow versioning): each placement step is claimed (its clock, batch and placeable
 * orders) before it writes, and a step decided again after a lost workflow task gets the claimed
 * inputs back from its load (src/matching/step-journal.ts). Runs recorded before decided such a
 * step afresh: with a later clock, and without the orders the lost attempt had handed over.
 */
export const STEP_JOURNAL = 'step-journal';
/**
 * Patch id (workflow versioning): cancels, removals and status changes are decided at the time the
 * request carries (`requested_at`, `at`), not at the workflow's clock, so a step decided again
 * after a lost workflow task decides what the lost attempt wrote. Runs recorded before used the
 * clock of the task: a re-run cancel past the order's expiration answered EXPIRED where the row
 * said CANCELLED.
 */
export const REQUEST_CLOCK = 'request-clock';
/**
 * Patch id (workflow versioning): a run continuing as new hands the next run its resting orders'
 * hashes (up to MAX_CARRIED_RESTING), and the next run loads those orders by `_id` beside its market
 * state instead of querying the orders collection by market and status, which FerretDB answers by
 * reading every order ever written (0.85 s in a fresh bench store, seconds after 30,000 orders:
 * the biggest part of a roll-over's stall). The rows still come from MongoDB: only the
 * list of which orders rest is carried.
 */
export const RESTING_CARRIED = 'resting-carried';
/** ~70 bytes each in the continue-as-new input: 5,000 is ~350 KB, far below 2 MB. Larger books query. */
export const MAX_CARRIED_RESTING = 5_000;
/**
 * Hashes received and not placed yet that a run hands the next one: ~70 bytes each, 5,000 is
 * ~350 KB. With MAX_CARRIED_RESTING and MAX_CARRIED_TRADES the input stays far below the server's
 * 2 MB limit; an input past it fails continue-as-new and the server terminates the run, losing
 * its waiting settlement batches. The rest of a longer queue keep their hand-off markers, so the
 * sweeper hands them over again.
 */
export const MAX_CARRIED_PENDING = 5_000;
/** Hashes per load of carried resting orders (each result well under 2 MB). */
const CARRIED_RESTING_PAGE = 1_000;
/**
 * Patch id (workflow versioning): a run started cold in a market that traded before (no counters in
 * its input: its previous run was terminated, not continued) looks up the settlement batches whose
 * taker fills are still PENDING and starts them; a batch whose child is still under way refuses the
 * start (same workflow id) and is left to it. Runs recorded before lost the batches a terminated run
 * had not started: their fills stayed PENDING and their orders MATCHED.
 */
export const RECOVER_PENDING_SETTLEMENTS = 'recover-pending-settlements';
/**
 * Patch id (workflow versioning): a placement batch leaves out the hashes this run has taken
 * already, and a batch left empty runs no step. Copies come from the sweeper, which hands over
 * again every order not taken within seconds: after a worker restart, the orders of the outage
 * were sent again while the market worked off its backlog (6,110 hashes in 23 hand-offs for a
 * ~15 s outage in the e2e bench), and each copy cost a step a load and a slot.
 */
export const DEDUPED_HANDOFFS = 'deduped-handoffs';

/**
 * Patch id (workflow versioning): a removal (an on-chain cancel or nonce bump seen by the watch)
 * of an order that is not on the book looks the order up, and one stored but not handed over yet
 * (OPEN, handoff PENDING) is ended CANCELLED with the removal's reason, as a cancel does. Runs
 * recorded before dropped such a removal: a removal that came before its order's placement (a
 * hand-off held over a roll, re-sent by the sweeper, or queued after it at continue-as-new) let an
 * order cancelled on chain rest and match, and its settlement was then refused.
 */
export const REMOVE_UNPLACED = 'remove-unplaced';

/**
 * Patch id (workflow versioning): an expiry pass runs at the earliest expiration due, not at the
 * task's clock, one pass per expiration second until none is due. A pass decided again after a
 * lost workflow task (a worker died after its write) then expires exactly what the lost attempt
 * wrote under the same book seq; at the task's later clock it expired a superset under that seq,
 * whose level rows kept the lost attempt's values and whose delta sockets holding that seq dropped.
 */
export const EXPIRY_AT_DEADLINE = 'expiry-at-deadline';

/**
 * Patch id (workflow versioning): an order trades with at most MAX_MAKERS_PER_TAKER makers and is
 * cancelled with its remainder (MAX_MAKERS_REACHED) when it still crosses. All of a taker's makers
 * settle in one `matchOrders` call: runs recorded before took any number, and a taker of a few
 * hundred makers went past a transaction's gas cap, so its whole group ended FAILED.
 */
export const MAKERS_PER_TAKER_CAP = 'makers-per-taker-cap';
/** Hashes a run remembers as taken, newest kept (~70 bytes each). */
const REMEMBERED_TAKEN = 20_000;
const DEFAULT_HISTORY_LIMIT = 4_000;
const STATUSES: readonly MarketStatus[] = ['OPEN', 'CLOSED', 'RESOLVED', 'PAUSED', 'SEEDING'];

/** What settlement needs of a trade: its id and its taker order (one `matchOrders` per taker). */
type SettlingTrade = Pick<TradeWrite, 'tradeId'> & { taker: Pick<TradeWrite['taker'], 'orderHash'> };

type Command =
  | { kind: 'place'; hashes: string[] }
  | { kind: 'cancel'; id: number; request: CancelOrders }
  | { kind: 'remove'; request: RemoveOrders }
  | { kind: 'return'; request: ReturnOrders }
  | { kind: 'status'; id: number; change: StatusChange };

export async function marketWorkflow(input: MarketWorkflowInput): Promise<void> {
  const market = { chain_id: input.market.chain_id, condition_id: input.market.condition_id.toLowerCase() };
  const key = marketKeyOf(market);
  const historyLimit = input.historyLimit ?? DEFAULT_HISTORY_LIMIT;
  const queue: Command[] = [];
  const results: Record<number, CancelOutcome | StatusResult> = {};
  let nextId = 1;
  let changes = input.changes ?? 0;
  let lastPrice = input.lastPrice ?? null;
  let engine: Engine | undefined;
  /** Settlement starts not awaited yet (SETTLEMENT_START_ASYNC); all are awaited before continue-as-new. */
  const starting: Promise<unknown>[] = [];
  /**
   * SETTLEMENT_COALESCED: trades written and waiting for a settlement child, batch by batch (oldest
   * first). `found`: looked up from its fills (RECOVER_PENDING_SETTLEMENTS), a child may settle it already.
   */
  const waitingSettlements: { batchId: string; trades: SettlingTrade[]; found?: boolean }[] = [];
  /** Children of this run started and not finished. */
  let settling = 0;
  /** A step's write is under way: its batch is not complete, so none may start. */
  let writing = false;
  let info: MarketInfo = { found: false, status: 'PAUSED', resolution_outcome: null, decimals: 18, fee_rate_bps: 0 };
  /** Placement steps of this run (STEP_JOURNAL): a retried workflow task numbers them the same way. */
  let placementSteps = 0;
  /** The run is due to continue as new; `quiet` (SETTLED_BEFORE_CONTINUE): it waits for its children first. */
  let rolling = false;
  let quiet = false;
  /** BOUNDED_ROLL: a quiet run continues as new by this workflow time (ms) even with children under way. */
  let rollBy = Infinity;
  /** RESTING_CARRIED, recorded where the run first wants a new run (its last task stays free of markers). */
  let carriesResting = false;
  /** Decided when the run stops taking commands: its waiting batches go to the next run, none starts here. */
  let carries = false;

  const answer = async <T extends CancelOutcome | StatusResult>(id: number): Promise<T> => {
    await condition(() => results[id] !== undefined);
    const result = results[id] as T;
    delete results[id];
    return result;
  };
  for (const request of input.pendingRemovals ?? []) queue.push({ kind: 'remove', request });
  for (const request of input.pendingReturns ?? []) queue.push({ kind: 'return', request });
  if (input.pending?.length) queue.push({ kind: 'place', hashes: input.pending });
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
    const id = nextId++;
    queue.push({ kind: 'cancel', id, request });
    return answer<CancelOutcome>(id);
  }, {
    validator: (request) => {
      if (!request || typeof request.wallet !== 'string' || !Array.isArray(request.hashes)) throw new Error('cancel needs {wallet, hashes}');
      if (request.hashes.length > MAX_CANCEL_HASHES) throw new Error(`at most ${MAX_CANCEL_HASHES} hashes per cancel`);
      if (request.reason !== undefined && !isStatusReason(request.reason)) throw new Error(`unknown cancel reason ${String(request.reason)}`);
    },
  });
  const statusRefusal = (change: StatusChange): string | null => {
    if (info.status === 'RESOLVED' && change.status !== 'RESOLVED') return 'a resolved market cannot change status';
    if (change.expected_from !== undefined && change.expected_from !== info.status) {
      return `Market status changed concurrently (expected ${change.expected_from}, is ${info.status}); retry`;
    }
    return null;
  };
  setHandler(setMarketStatusUpdate, async (change) => {
    const id = nextId++;
    queue.push({ kind: 'status', id, change });
    const result = await answer<StatusResult>(id);
    if (result.refused) throw ApplicationFailure.nonRetryable(result.refused, 'VALIDATION_ERROR');
    return result;
  }, {
    validator: (change) => {
      if (!change || !STATUSES.includes(change.status)) throw new Error(`unknown market status ${String(change?.status)}`);
      if (change.status === 'RESOLVED' && change.resolution_outcome !== 0 && change.resolution_outcome !== 1) {
        throw new Error('RESOLVED needs resolution_outcome 0 or 1');
      }
      // Before the run has loaded its market, the main loop checks the rest (statusRefusal).
      const refusal = engine === undefined ? null : statusRefusal(change);
      if (refusal) throw new Error(refusal);
    },
  });
  setHandler(marketViewQuery, () => ({
    ready: engine !== undefined,
    status: info.status,
    resting: engine?.restingCount ?? 0,
    counters: engine ? { ...engine.counters } : { seq: 0, bookSeq: 0, tradeSeq: 0, arrival: 0 },
    queued: queue.length,
    bestBid: engine?.bestBid() ?? null,
    bestAsk: engine?.bestAsk() ?? null,
  }));
  setHandler(marketDepthQuery, (n) => {
    const depth = engine?.depth(n ?? 50) ?? { seq: 0, bids: [], asks: [] };
    const wire = (levels: { price: number; remaining: bigint }[]) => levels.map((l) => ({ price: l.price, remaining: l.remaining.toString() }));
    return { ready: engine !== undefined, seq: depth.seq, bids: wire(depth.bids), asks: wire(depth.asks) };
  });

  // The previous run held the market's hand-offs while it continued as new (HELD_HANDOFFS): this
  // run takes them from now on, while it loads.
  const released = input.handoffsHeld ? local.holdHandoffs({ market, holdMs: 0 }) : undefined;
  // A carried book (RESTING_CARRIED) loads beside the market state, both local: one task, no query.
  const carried = input.resting ? loadCarriedResting(key, input.resting) : undefined;
  const state = carried
    ? await local.loadMarketState(market, { runId: workflowInfo().runId })
    : await db.loadMarketState(market, { runId: workflowInfo().runId });
  info = state.info;
  if (input.lastPrice === undefined) lastPrice = state.lastPrice;
  const restingRows = carried ? await carried : await loadRestingOrders(key);
  const book = restoreEngine(key, input.counters ?? state.counters, restingRows, patched(MAKERS_PER_TAKER_CAP) ? MAX_MAKERS_PER_TAKER : Number.POSITIVE_INFINITY);
  engine = book;
  await released;

  const secondsOf = (ms: number) => Math.floor(ms / 1000);
  const nowSeconds = () => secondsOf(Date.now());
  /**
   * The latest time a step wrote at (ms): a request's clock never goes back before it. Carried
   * across continue-as-new (a request queued in one run and decided in the next).
   */
  let lastWriteAt = input.lastWriteAt ?? 0;
  /**
   * A request's step clock (ms): the time it carries (REQUEST_CLOCK), but not before the run's last
   * write (a cancel asked for while its order's placement was still queued must not date the
   * order's end before its `book_added_at`); else the workflow's clock.
   */
  const clockOf = (requested: number | undefined): number => (
    requested !== undefined && patched(REQUEST_CLOCK) ? Math.max(requested, lastWriteAt) : Date.now());

  /**
   * Writes what one step changed (one activity), then starts the settlement of its trades.
   * `removed`: how orders taken off the book end; `reason`: why the step's other cancels end
   * (the engine's own reason otherwise); `at`: the step's workflow time (now by default); `claim`:
   * a placement step's inputs, claimed before the write.
   */
  async function write(
    events: EngineEvent[], placed: Set<string>, direct: DirectEnd[],
    { removed = {}, reason, at = Date.now(), claim }: { removed?: Record<string, RemovalEnd>; reason?: StatusReason; at?: number; claim?: StepInputs } = {},
  ): Promise<void> {
    if (events.length === 0 && direct.length === 0) return;
    lastWriteAt = Math.max(lastWriteAt, at);
    const folded = foldEvents(events, placed, (hash) => book.order(hash)?.arrival);
    for (const o of folded.orders) {
      if (o.status !== 'CANCELLED') continue;
      const end = removed[o.hash];
      if (end) Object.assign(o, end);
      else if (reason) o.reason = reason;
    }
    if (folded.lastPrice !== null) lastPrice = folded.lastPrice;
    const ticker = folded.book.length > 0 || folded.trades.length > 0
      ? { seq: book.counters.seq, bestBid: book.bestBid(), bestAsk: book.bestAsk(), lastPrice }
      : null;
    const coalesced = folded.trades.length > 0 && patched(SETTLEMENT_COALESCED);
    const settlementBatch = coalesced ? settlementBatchFor(folded.trades) : undefined;
    writing = true;
    try {
      const outcome = await step().applyMatchBatch({
        market, decimals: info.decimals, at, orders: folded.orders, direct, trades: folded.trades,
        book: folded.book, ticker, counters: { ...book.counters }, ...(settlementBatch ? { settlementBatch } : {}), ...(claim ? { step: claim } : {}),
      });
      // A live attempt of this same task claimed the step first, with other inputs: failing the
      // task makes Temporal run it again from history, and the load then returns that claim.
      if (outcome?.diverged) throw new Error(`placement step ${claim?.id} was claimed by another attempt of this workflow task`);
    } finally {
      writing = false;
    }
    // Also after a step without trades: a child that finished during its write started nothing.
    startWaitingSettlements();
    if (!coalesced && folded.trades.length > 0) await startSettlement(folded.trades);
  }

  /**
   * SETTLEMENT_COALESCED: the batch that will carry `trades` (the newest waiting one while it has
   * room, else a new one named after their first trade), which they join; its id goes on the fills.
   */
  function settlementBatchFor(trades: TradeWrite[]): string {
    const last = waitingSettlements[waitingSettlements.length - 1];
    // Never a found batch: its child may be under way already, and would not settle trades added here.
    if (last && !last.found && last.trades.length < MAX_SETTLEMENT_TRADES) {
      last.trades.push(...trades);
      return last.batchId;
    }
    const batchId = settlementBatchIdOf(key, trades[0].tradeId);
    waitingSettlements.push({ batchId, trades: [...trades] });
    return batchId;
  }

  /**
   * Starts waiting batches while fewer than MAX_SETTLING children are under way (`all`: every one,
   * before continue-as-new). Runs again whenever a child of this run finishes.
   */
  function startWaitingSettlements(all = false): void {
    while (!writing && waitingSettlements.length > 0 && (all || (!holdsSettlements() && settling < MAX_SETTLING))) {
      const { batchId, trades, found } = waitingSettlements.shift()!;
      settling += 1;
      // A found batch whose child is under way (or a run's before) is that child's to settle.
      const started = found ? startSettlementChild(batchId, trades, true).catch(leftToRunningChild) : startSettlementChild(batchId, trades);
      starting.push(started);
      void started
        .then((child) => child?.result())
        .catch(() => undefined)
        .then(() => {
          settling -= 1;
          startWaitingSettlements();
        });
    }
  }

  /** The trades by taker order, in order: each group is one `matchOrders(taker, makers)`. */
  function takerGroupsOf<T extends SettlingTrade>(trades: T[]): T[][] {
    const groups: T[][] = [];
    for (const t of trades) {
      const last = groups[groups.length - 1];
      if (last && last[0].taker.orderHash === t.taker.orderHash) last.push(t);
      else groups.push([t]);
    }
    return groups;
  }
  const batchIdOf = (group: SettlingTrade[]) => settlementBatchIdOf(key, group[0].tradeId);

  /** A settlement child, started (not awaited); `args` without the market and retry delay. */
  function settlementChild(batchId: string, settle: Omit<SettlementInput, 'market' | 'batchId'>, options: Pick<ChildWorkflowOptions, 'memo' | 'typedSearchAttributes'>) {
    return startChild(settlementWorkflow, {
      workflowId: settlementWorkflowId(batchId),
      args: [{ market, batchId, ...settle, retryDelayMs: input.settlementRetryDelayMs }],
      // Settlement outlives this run: continue-as-new must not cancel it.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      ...options,
    });
  }

  /** One settlement child for `trades`: one group (one `matchOrders`) per taker order, side by side. */
  function startSettlementChild(batchId: string, trades: SettlingTrade[], found = false) {
    const groups = takerGroupsOf(trades);
    // The memo lists the batch's first taker orders (MEMO_TAKERS; a search attribute value is
    // limited to 2 KB, ~25 hashes): OrderHash is the first taker, and each fill record names its
    // batch (`settlement_batch`). The memo is not part of the command's determinism check.
    const takers = groups.map((g) => g[0].taker.orderHash);
    // Compact: no separate list of every trade, and each group's batch id follows from its first trade.
    return settlementChild(batchId, { groups: groups.map((g) => ({ tradeIds: g.map((t) => t.tradeId) })), ...(found ? { found } : {}) }, {
      memo: { market: key, takers: takers.slice(0, MEMO_TAKERS), takers_total: takers.length, trades: trades.length },
      typedSearchAttributes: [{ key: MARKET_ID, value: key }, { key: ORDER_HASH, value: takers[0] }],
    });
  }

  /**
   * Runs before SETTLEMENT_COALESCED: one settlement child per step (SETTLEMENT_PER_STEP), or
   * before that, one per taker order, one after the other: each start cost the market a workflow
   * task, and the step's takers queued behind them.
   */
  async function startSettlement(trades: TradeWrite[]): Promise<void> {
    const groups = takerGroupsOf(trades);
    if (patched(SETTLEMENT_PER_STEP)) {
      const started = startSettlementChild(batchIdOf(groups[0]), trades);
      if (!patched(SETTLEMENT_START_ASYNC)) {
        await started;
        return;
      }
      // A failed start still fails the run, when the starts are awaited (as an awaited start did).
      started.catch(() => undefined);
      starting.push(started);
      return;
    }
    for (const group of groups) {
      await settlementChild(batchIdOf(group), { tradeIds: group.map((t) => t.tradeId) }, {
        memo: { market: key, taker: group[0].taker.orderHash, trades: group.length },
        typedSearchAttributes: [{ key: MARKET_ID, value: key }, { key: ORDER_HASH, value: group[0].taker.orderHash }],
      });
    }
  }


  async function place(batch: string[]): Promise<void> {
    const stepId = patched(STEP_JOURNAL) ? `${workflowInfo().runId}:${++placementSteps}` : undefined;
    const load = await step().loadOrdersForPlacement({ market, hashes: batch, ...(stepId ? { step: stepId } : {}) });
    // A step claimed by a lost attempt of this task is decided over the same hashes at the same time.
    const at = load.decided?.at ?? Date.now();
    const hashes = load.decided ? batch.slice(0, load.decided.count) : batch;
    if (hashes.length < batch.length) {
      // Not this step's after all: they are taken again later (DEDUPED_HANDOFFS must not skip them).
      for (const h of batch.slice(hashes.length)) taken.delete(h);
      queue.unshift({ kind: 'place', hashes: batch.slice(hashes.length) });
    }
    const now = secondsOf(at);
    const events: EngineEvent[] = [];
    const placed = new Set<string>();
    const direct: DirectEnd[] = [];
    const placeables = placeablesOf(load);
    for (const o of placeables) {
      if (info.status !== 'OPEN') {
        direct.push({ hash: o.hash, status: 'CANCELLED', reason: notOpenReason(info.status) });
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
    await write(events, placed, direct, { at, claim });
  }

  async function cancel(request: CancelOrders): Promise<CancelOutcome> {
    const wallet = request.wallet.toLowerCase();
    const at = clockOf(request.requested_at);
    const now = secondsOf(at);
    const outcome: CancelOutcome = { cancelled: [], not_cancelled: [] };
    const notFound = (order_hash: string) => outcome.not_cancelled.push({ order_hash, error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } });
    const events: EngineEvent[] = [];
    const elsewhere: string[] = [];
    const hashes = [...new Set(request.hashes.map((h) => String(h).toLowerCase()))];
    for (const hash of hashes) {
      const resting = book.order(hash);
      if (!resting) {
        elsewhere.push(hash);
      } else if (resting.maker.toLowerCase() !== wallet) {
        notFound(hash);
      } else {
        const caused = book.cancel(hash, now, 'USER');
        for (const e of caused) events.push(e);
        if (caused.some((e) => e.type === 'ORDER_EXPIRED')) {
          outcome.not_cancelled.push({ order_hash: hash, error: { code: 'ORDER_NOT_OPEN', message: 'Order has expired' } });
        } else {
          outcome.cancelled.push(hash);
        }
      }
    }
    const direct: DirectEnd[] = [];
    if (elsewhere.length > 0) {
      const found = await db.lookupOrders({ hashes: elsewhere });
      const byHash: Record<string, (typeof found)[number]> = {};
      for (const f of found) byHash[f.order_hash] = f;
      for (const hash of elsewhere) {
        const o = byHash[hash];
        if (!o || o.wallet.toLowerCase() !== wallet || o.market_key !== key) notFound(hash);
        else if (o.status === 'MATCHED' || o.status === 'FILLED') {
          outcome.not_cancelled.push({ order_hash: hash, error: { code: 'ORDER_ALREADY_FILLED', message: 'Order is already filled' } });
        } else if (o.status === 'OPEN' && o.handoff === 'PENDING') {
          // Persisted but not handed over yet: end it here; its placement will skip it.
          direct.push({ hash, status: 'CANCELLED', reason: request.reason ?? 'USER_CANCEL' });
          outcome.cancelled.push(hash);
        } else {
          outcome.not_cancelled.push({ order_hash: hash, error: { code: 'ORDER_NOT_OPEN', message: `Order is ${o.status}` } });
        }
      }
    }
    await write(events, new Set(), direct, { at, reason: request.reason });
    return outcome;
  }

  async function remove(request: RemoveOrders): Promise<void> {
    const at = clockOf(request.at);
    const now = secondsOf(at);
    const events: EngineEvent[] = [];
    const removed: Record<string, RemovalEnd> = {};
    const end = removalEndOf(request);
    const elsewhere: string[] = [];
    for (const hash of request.hashes.map((h) => h.toLowerCase())) {
      if (!book.order(hash)) {
        elsewhere.push(hash);
        continue;
      }
      for (const e of book.cancel(hash, now, 'OPERATOR')) events.push(e);
      removed[hash] = end;
    }
    const direct: DirectEnd[] = [];
    // A settlement failure concerns orders that traded, so never one still waiting for its placement.
    if (end.status === 'CANCELLED' && elsewhere.length > 0 && patched(REMOVE_UNPLACED)) {
      for (const o of await db.lookupOrders({ hashes: elsewhere })) {
        // Its placement, when it comes, finds it ended and skips it.
        if (o.market_key === key && o.status === 'OPEN' && o.handoff === 'PENDING') direct.push({ hash: o.order_hash, ...end });
      }
    }
    await write(events, new Set(), direct, { removed, at });
  }

  /** Settlement's return: the other orders of a failed match back where they stood (market-returns.ts). */
  async function giveBack(request: ReturnOrders): Promise<void> {
    const at = clockOf(request.at);
    const { events, failed } = await applyReturn(book, key, request, secondsOf(at));
    const removed: Record<string, RemovalEnd> = {};
    for (const [hash, code] of Object.entries(failed)) removed[hash] = { status: 'MATCH_FAILED', reason: statusReasonFor('MATCH_FAILED', code) ?? 'SETTLEMENT_FAILED' };
    await write(events, new Set(), [], { at, removed });
  }

  async function changeStatus(change: StatusChange): Promise<StatusResult> {
    const from = info.status;
    const refused = statusRefusal(change);
    if (refused) return { status: info.status, resolution_outcome: info.resolution_outcome, cancelled: 0, refused };
    const ending = change.status === 'CLOSED' || change.status === 'RESOLVED';
    const before = book.restingCount;
    const at = clockOf(change.requested_at);
    const reason = change.status === 'RESOLVED' ? 'MARKET_RESOLVED' : 'MARKET_CLOSED';
    if (ending) await write(book.cancelAll(secondsOf(at), {}, 'MARKET_CLOSED'), new Set(), [], { at, reason });
    const resolution = change.status === 'RESOLVED' ? (change.resolution_outcome ?? null) : null;
    changes += 1;
    await db.applyMarketStatus({
      // The run's id too: a run started cold (after a terminated one) counts its changes from 0 again.
      market, change_id: `${workflowInfo().workflowId}:${workflowInfo().runId}:status:${changes}`, from_status: from, to_status: change.status,
      resolution_outcome: resolution, actor: change.actor, at,
    });
    info = { ...info, status: change.status, resolution_outcome: resolution };
    return { status: info.status, resolution_outcome: info.resolution_outcome, cancelled: ending ? before : 0 };
  }

  async function expire(): Promise<void> {
    let next = book.nextExpiration();
    if (next === null || next > nowSeconds()) return;
    if (!patched(EXPIRY_AT_DEADLINE)) return void (await write(book.expire(nowSeconds()), new Set(), []));
    // Each pass's time comes from the book, never from the task's clock: a retried task repeats the
    // lost attempt's passes exactly, and only then makes the ones that came due since.
    for (; next !== null && next <= nowSeconds(); next = book.nextExpiration()) await write(book.expire(next), new Set(), []);
  }

  /** Hashes this run took (DEDUPED_HANDOFFS), oldest first, the newest REMEMBERED_TAKEN of them. */
  const taken = new Set<string>();
  const remember = (hash: string) => {
    taken.add(hash);
    if (taken.size > REMEMBERED_TAKEN) taken.delete(taken.values().next().value as string);
  };
  /**
   * Takes the next command, merging consecutive placements into one batch (DEDUPED_HANDOFFS:
   * without the hashes this run took already, possibly none).
   */
  function take(): Command {
    const first = queue.shift()!;
    if (first.kind !== 'place') return first;
    const bound = patched(WIDE_PLACE_BATCH) ? MAX_PLACE_BATCH_WIDE : MAX_PLACE_BATCH;
    const skip = patched(DEDUPED_HANDOFFS) ? taken : undefined;
    const hashes = new Set<string>();
    const add = (list: string[]) => {
      for (const h of list) if (!skip?.has(h)) hashes.add(h);
    };
    add(first.hashes);
    while (queue.length > 0 && queue[0].kind === 'place' && hashes.size < bound) add((queue.shift() as { hashes: string[] }).hashes);
    const all = [...hashes];
    // Anything beyond the batch bound goes back to the front, in order.
    if (all.length > bound) queue.unshift({ kind: 'place', hashes: all.slice(bound) });
    const batch = all.slice(0, bound);
    if (skip) for (const h of batch) remember(h);
    return { kind: 'place', hashes: batch };
  }

  const wantsNewRun = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= historyLimit;
  const carriedTrades = () => waitingSettlements.reduce((n, b) => n + b.trades.length, 0);
  /** Waited too long for the children: continue as new the way runs before SETTLED_BEFORE_CONTINUE did. */
  const overdue = () => workflowInfo().historyLength >= OVERDUE_FACTOR * historyLimit || carriedTrades() >= MAX_CARRIED_TRADES;
  /**
   * Settlement children are not started while a quiet run waits for the ones under way to finish,
   * nor once it carries its batches (a child finishing late must not start a carried batch).
   */
  const holdsSettlements = () => rolling && quiet && (carries || !overdue());
  const readyToRoll = () => rolling && (!quiet || settling === 0 || overdue() || Date.now() >= rollBy);
  /** Called between commands: the patch marker is recorded once, where the run first wants a new run. */
  const noteRoll = () => {
    if (rolling || !wantsNewRun()) return;
    rolling = true;
    carriesResting = patched(RESTING_CARRIED);
    quiet = patched(SETTLED_BEFORE_CONTINUE);
    if (quiet && patched(BOUNDED_ROLL)) rollBy = Date.now() + (input.rollWaitMs ?? MAX_ROLL_WAIT_MS);
  };

  async function run(command: Command): Promise<void> {
    if (command.kind === 'place') {
      // An empty one held only copies of hashes this run took (DEDUPED_HANDOFFS): no step.
      if (command.hashes.length > 0) await place(command.hashes);
    } else if (command.kind === 'cancel') results[command.id] = await cancel(command.request);
    else if (command.kind === 'remove') await remove(command.request);
    else if (command.kind === 'return') await giveBack(command.request);
    else results[command.id] = await changeStatus(command.change);
    await expire();
  }
  const awaitsAnswer = () => queue.some((c) => c.kind === 'cancel' || c.kind === 'status');

  // Batches the previous run carried over (SETTLED_BEFORE_CONTINUE) go out first.
  const settlingOf = (carried: CarriedSettlement): SettlingTrade[] => carried.trades.map(([tradeId, orderHash]) => ({ tradeId, taker: { orderHash } }));
  for (const carried of input.pendingSettlements ?? []) {
    waitingSettlements.push({ batchId: carried.batchId, trades: settlingOf(carried), ...(carried.found ? { found: true } : {}) });
  }
  // Started cold in a market that traded: what a terminated run wrote and never settled.
  if (input.counters === undefined && state.counters !== null && patched(RECOVER_PENDING_SETTLEMENTS)) {
    for (let from: number | null = 0; from !== null;) {
      const page: PendingSettlementsPage = await db.loadPendingSettlements({ marketKey: key, from });
      for (const found of page.batches) waitingSettlements.push({ batchId: found.batchId, trades: settlingOf(found), found: true });
      from = page.next;
    }
  }
  startWaitingSettlements();

  for (;;) {
    // A quiet run keeps matching while it waits for its children; the last one finishing wakes it,
    // or its wait's bound (BOUNDED_ROLL).
    const expiry = book.nextExpiration();
    const next = Math.min(expiry === null ? Infinity : expiry * 1000, rolling && !readyToRoll() ? rollBy : Infinity);
    const wake = () => queue.length > 0 || (wantsNewRun() && !rolling) || readyToRoll();
    if (next === Infinity) await condition(wake);
    else await condition(wake, Math.max(1, next - Date.now()));
    // Under constant load the queue never empties: the history bound is checked between steps. A
    // run that is ready continues as new at once, in the task that woke it: the shorter that task,
    // the less likely a signal lands in it and fails it.
    for (;;) {
      noteRoll();
      if (queue.length === 0 || readyToRoll()) break;
      await run(take());
    }
    await expire();
    noteRoll();
    if (readyToRoll()) break;
  }
  // Updates need their answer from this run: serve the queue up to the last one, then let every
  // handler return. What is left (placements, removals) is carried into the next run, in order.
  carries = quiet && !overdue();
  const holds = carries && patched(HELD_HANDOFFS);
  if (holds && rollBy !== Infinity) {
    // BOUNDED_ROLL: the activity's completion starts the last task.
    await db.holdHandoffs({ market, holdMs: HANDOFF_HOLD_MS, drainMs: HANDOFF_DRAIN_MS });
  } else if (holds) {
    await local.holdHandoffs({ market, holdMs: HANDOFF_HOLD_MS });
    await sleep(HANDOFF_DRAIN_MS);
  }
  for (;;) {
    while (awaitsAnswer()) await run(take());
    if (!carries) startWaitingSettlements(true); // no trade waits past the run
    await Promise.all(starting.splice(0)); // every settlement started before the run ends
    await condition(() => allHandlersFinished() || awaitsAnswer());
    if (!awaitsAnswer()) break;
  }
  // Each hash once (the sweeper's copies repeat them), none this run took, in arrival order, bounded.
  const queued = new Set<string>();
  const pendingRemovals: RemoveOrders[] = [];
  const pendingReturns: ReturnOrders[] = [];
  for (const c of queue) {
    if (c.kind === 'place') {
      for (const h of c.hashes) if (!taken.has(h)) queued.add(h);
    } else if (c.kind === 'remove') {
      pendingRemovals.push(c.request);
    } else if (c.kind === 'return') {
      pendingReturns.push(c.request);
    }
  }
  const maxPending = input.maxCarriedPending ?? MAX_CARRIED_PENDING;
  const pending = [...queued].slice(0, maxPending);
  if (queued.size > maxPending) log.warn('hand-offs left to the sweeper', { market: key, carried: maxPending, left: queued.size - maxPending });
  // A quiet run's waiting batches (all written) are settled by the next run, under the same ids.
  const pendingSettlements = carries
    ? waitingSettlements.map((b): CarriedSettlement => ({
      batchId: b.batchId, trades: b.trades.map((t): [string, string] => [t.tradeId, t.taker.orderHash]), ...(b.found ? { found: true } : {}),
    }))
    : [];
  const resting = carriesResting && book.restingCount <= (input.maxCarriedResting ?? MAX_CARRIED_RESTING) ? book.restingHashes() : undefined;
  await continueAsNew<typeof marketWorkflow>({
    market, counters: { ...book.counters }, changes, lastPrice, lastWriteAt, historyLimit: input.historyLimit, rollWaitMs: input.rollWaitMs, maxCarriedResting: input.maxCarriedResting,
    maxCarriedPending: input.maxCarriedPending,
    settlementRetryDelayMs: input.settlementRetryDelayMs, pending, pendingRemovals,
    ...(pendingSettlements.length > 0 ? { pendingSettlements } : {}), ...(holds ? { handoffsHeld: true } : {}),
    ...(pendingReturns.length > 0 ? { pendingReturns } : {}),
    ...(resting ? { resting } : {}),
  });
}

/** How a removal's orders end: its reason as a status reason, and the status it ends them in. */
type RemovalEnd = { status: 'CANCELLED' | 'MATCH_FAILED'; reason: StatusReason };

function removalEndOf(request: RemoveOrders): RemovalEnd {
  const status = request.status ?? (request.reason === 'SETTLEMENT_FAILED' ? 'MATCH_FAILED' : 'CANCELLED');
  return { status, reason: statusReasonFor(status, request.reason) ?? 'USER_CANCEL' };
}

/** Why an order reaching a market that does not trade ends. */
function notOpenReason(status: MarketStatus): StatusReason {
  if (status === 'CLOSED') return 'MARKET_CLOSED';
  if (status === 'RESOLVED') return 'MARKET_RESOLVED';
  return 'MARKET_NOT_ACTIVE';
}

/** A found batch's start refused because its child is already under way: nothing to start. */
function leftToRunningChild(error: unknown): undefined {
  if (error instanceof WorkflowExecutionAlreadyStartedError) return undefined;
  throw error;
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

function toEngineOrder(o: PlaceableOrder): EngineOrder {
  return {
    hash: o.hash, maker: o.maker, taker: o.taker, side: o.side, outcome: o.outcome, orderType: o.orderType, price: o.price,
    size: BigInt(o.size), makerAmount: BigInt(o.makerAmount), takerAmount: BigInt(o.takerAmount),
    expiration: o.expiration, feeRateBps: o.feeRateBps, postOnly: o.postOnly === true,
  };
}
