/**
 * Activities of the market workflow: load what a step needs, and write what a step changed with
 * ONE idempotent bulk write per step, then publish it. Every write is guarded so that an
 * at-least-once retry never applies twice: orders by `applied_seq`, fills and trades by their `_id`
 * (inserted; a duplicate key means already written), book levels and the ticker by their seq,
 * counters by $max.
 */
import { createBookLoads } from './market/book-loads';
import { marketContextOf, type MarketActivityDeps } from './market/context';
import { createHandoffHold } from './market/handoff-hold';
import { createMarketStateLoad } from './market/market-state';
import { createPlacementLoads } from './market/placement-loads';
import { createStatusChange } from './market/status-change';
import { createStepWrites } from './market/step-write';

export type { MarketActivityDeps } from './market/context';
export { reservedUnitsOf, toPlaceable } from './market/stored-orders';

/** The market workflow's activities, registered by these names: running histories call them by name. */
export function createMarketActivities(deps: MarketActivityDeps) {
  const ctx = marketContextOf(deps);
  const steps = createStepWrites(ctx);
  return {
    ...createMarketStateLoad(ctx, steps),
    ...createBookLoads(ctx),
    ...createPlacementLoads(ctx),
    applyMatchBatch: steps.applyMatchBatch,
    ...createStatusChange(ctx),
    ...createHandoffHold(ctx),
  };
}

export type MarketActivities = ReturnType<typeof createMarketActivities>;
