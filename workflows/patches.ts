/**
 * Every patch id (workflow versioning, `patched(id)`) of the workflows, one line each: what the
 * patched branch does where runs recorded before it did otherwise. The ids are recorded in
 * histories: never rename or reuse one. The why and the numbers are in docs/matching.md.
 *
 * Deprecating the old branches. A branch for runs without a patch's marker can go once no open run
 * lacks the marker, in three releases:
 *  1. Find the runs still started before the patch's release:
 *     `temporal workflow list --query 'WorkflowType="marketWorkflow" AND ExecutionStatus="Running"
 *     AND StartTime < "<release time>"'` (settlementWorkflow likewise). A market run continues as
 *     new every ~4,000 events, and a settlement child ends within minutes, so the list empties on
 *     its own. A market too quiet to reach its bound keeps its run: terminate that run (the next
 *     hand-off starts one cold, which reloads the book and recovers unsettled batches, see
 *     RECOVER_PENDING_SETTLEMENTS), or keep the branch until it rolls.
 *  2. Once it is empty, replace `patched(ID)` by `deprecatePatch(ID)` and delete the old branch:
 *     runs that recorded the marker still replay, and new runs record it. Delete the replay
 *     histories recorded before the patch (test/workflows/histories, named in the patch's test)
 *     and record new ones with RECORD_HISTORIES=1.
 *  3. A release later, once no open run was started before step 2's release (the same query),
 *     remove the `deprecatePatch(ID)` call and the id below.
 * Patches recorded lazily (RESTING_CARRIED, SETTLED_BEFORE_CONTINUE, BOUNDED_ROLL where a run
 * first wants a new run) keep their call at the same place in step 2: where a marker lands in a
 * run's last task is part of why it was put there.
 */

// Market workflow (workflows/market/).
/** A placement step's load and write run as local activities in the workflow's own worker. */
export const LOCAL_STEP_ACTIVITIES = 'local-step-activities';
/** One settlement child per step instead of one per taker order. */
export const SETTLEMENT_PER_STEP = 'settlement-per-step';
/** A step does not wait for its settlement child to start; every start is awaited before continue-as-new. */
export const SETTLEMENT_START_ASYNC = 'settlement-start-async';
/** Trades of consecutive steps are coalesced into batches, at most MAX_SETTLING children under way. */
export const SETTLEMENT_COALESCED = 'settlement-coalesced';
/** A run due to continue as new first lets its settlement children finish, carrying unstarted batches over. */
export const SETTLED_BEFORE_CONTINUE = 'settled-before-continue';
/** A quiet run holds the market's hand-offs while it continues as new; the next run releases them. */
export const HELD_HANDOFFS = 'held-handoffs-continue';
/** A quiet run waits for its children at most MAX_ROLL_WAIT_MS, and its hold drains in an activity, not a timer. */
export const BOUNDED_ROLL = 'bounded-roll';
/** Placement steps take up to MAX_PLACE_BATCH_WIDE orders instead of MAX_PLACE_BATCH. */
export const WIDE_PLACE_BATCH = 'wide-place-batch';
/** Each placement step is claimed before it writes; a step decided again gets the claimed inputs back. */
export const STEP_JOURNAL = 'step-journal';
/** Cancels, removals and status changes are decided at the time the request carries, not the task's clock. */
export const REQUEST_CLOCK = 'request-clock';
/** A run hands the next one its resting orders' hashes, loaded by `_id` instead of queried. */
export const RESTING_CARRIED = 'resting-carried';
/** A run started cold in a market that traded starts the settlement batches whose taker fills are still PENDING. */
export const RECOVER_PENDING_SETTLEMENTS = 'recover-pending-settlements';
/** A placement batch leaves out the hashes this run has taken already; an empty batch runs no step. */
export const DEDUPED_HANDOFFS = 'deduped-handoffs';
/** A removal of an order stored but not handed over yet ends it CANCELLED instead of being dropped. */
export const REMOVE_UNPLACED = 'remove-unplaced';
/** An expiry pass runs at the earliest expiration due, one pass per expiration second, not at the task's clock. */
export const EXPIRY_AT_DEADLINE = 'expiry-at-deadline';
/** A taker trades with at most MAX_MAKERS_PER_TAKER makers; a remainder that still crosses is cancelled. */
export const MAKERS_PER_TAKER_CAP = 'makers-per-taker-cap';

// Settlement workflow (workflows/settlement.workflow.ts, workflows/settlement-unwind.ts).
/** Settlement's activities run on their own task queue (`{queue}-settlement`), not the markets' one. */
export const SETTLEMENT_TASK_QUEUE = 'settlement-task-queue';
/** Two activities on the common path: send with receipts, and confirm with the orders' finish. */
export const SETTLEMENT_TWO_STAGES = 'settlement-two-stages';
/** A round whose earlier send's outcome is unknown does not count toward MAX_SETTLEMENT_ATTEMPTS. */
export const SETTLEMENT_UNKNOWN_UNCOUNTED = 'settlement-unknown-uncounted';
/** A batch's groups move through each stage together, one activity per stage for all of them. */
export const BATCHED_SETTLEMENT = 'settlement-batched-activities';
/** Makers expired on chain since the match fail alone; the rest of their group is sent again. */
export const SETTLEMENT_DROPS_EXPIRED = 'settlement-drops-expired-makers';
/** Orders the chain now refuses fail alone; the other orders of their match go back to the market. */
export const SETTLEMENT_BLAMES_LEGS = 'settlement-blames-legs';
/** A batch reads its orders and wallets and sets them as the OrderHashes and Wallets search attributes. */
export const SETTLEMENT_LISTS_PARTIES = 'settlement-lists-parties';

// Dead-man switch (workflows/heartbeat.workflow.ts).
/** The switch reads the beats the API stores instead of taking every heartbeat as a signal. */
export const HEARTBEAT_STORED_BEATS = 'heartbeat-stored-beats';

// AMM market setup (workflows/amm-market-setup.workflow.ts).
/** The setup starts the market's pool watcher (a child it abandons) once the pool is open. */
export const POOL_WATCHER_AFTER_SETUP = 'pool-watcher-after-setup';
