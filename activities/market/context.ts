/** What the market workflow's activities share: their dependencies and this process's per-market state. */
import type { Logger } from '../../src/logging/logger';
import type { MatchingCollections } from '../../src/matching/collections';
import { LoadedOrders } from '../../src/matching/loaded-orders';
import { NO_STEP_PRIORITY, type StepPriority } from '../../src/matching/step-priority';
import type { HandoffHolder } from '../../src/ports/market-matcher';
import type { RealtimePublisher } from '../../src/ports/realtime-publisher';

export interface MarketActivityDeps {
  collections: MatchingCollections;
  publisher: RealtimePublisher;
  logger: Logger;
  /** This process's own hand-offs (the sweeper's matcher client), held with the API processes'. */
  handoffs?: HandoffHolder;
  /** Marks each step from its load to its write, so settlement's commands wait for it (default: none). */
  priority?: StepPriority;
}

export interface MarketContext {
  c: MatchingCollections;
  publisher: RealtimePublisher;
  logger: Logger;
  handoffs?: HandoffHolder;
  priority: StepPriority;
  /** The orders a placement load read, kept for its step's write. */
  loaded: LoadedOrders;
  /** Per market key: the last step's events on their way to the API processes (never rejects). */
  deliveries: Map<string, Promise<unknown>>;
}

export function marketContextOf({ collections: c, publisher, logger, handoffs, priority = NO_STEP_PRIORITY }: MarketActivityDeps): MarketContext {
  return { c, publisher, logger, handoffs, priority, loaded: new LoadedOrders(), deliveries: new Map() };
}
