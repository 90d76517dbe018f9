/** Bounds of a market workflow run: batch sizes, settlement concurrency, roll-over and carried payloads. */

/** Orders placed per step: bounds the step's activity payload (well under 2 MB). */
export const MAX_PLACE_BATCH = 200;
/**
 * Orders per step with WIDE_PLACE_BATCH: a backlogged market spent a third of each 200-order step
 * on what every step costs whatever its size (load query, book levels, counters, ticker, task round trips).
 */
export const MAX_PLACE_BATCH_WIDE = 400;
/** Hashes a run remembers as taken (DEDUPED_HANDOFFS), newest kept (~70 bytes each). */
export const REMEMBERED_TAKEN = 20_000;

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

/** Continue as new once the history has this many events (`historyLimit` overrides it). */
export const DEFAULT_HISTORY_LIMIT = 4_000;
/** The hand-off hold's bound (HELD_HANDOFFS), should the next run's release be lost: long enough for a retried task's replay. */
export const HANDOFF_HOLD_MS = 10_000;
/** How long a run waits after its hold for the hand-off signals already under way. */
export const HANDOFF_DRAIN_MS = 100;
/** How long a quiet run waits for its settlement children before it continues as new anyway (BOUNDED_ROLL). */
export const MAX_ROLL_WAIT_MS = 5_000;
/**
 * A run that has waited this many times its history bound for its children continues as new
 * anyway (a settlement retrying for minutes must not let the history grow without bound).
 */
export const OVERDUE_FACTOR = 2;
/** ... or once it carries this many trades (~150 bytes each in the next run's input, far below 2 MB). */
export const MAX_CARRIED_TRADES = 4_000;
/** Resting hashes handed to the next run: ~70 bytes each, 5,000 is ~350 KB, far below 2 MB. Larger books query. */
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
export const CARRIED_RESTING_PAGE = 1_000;
