import type { Connection } from 'mongoose';
import type { RealtimePublisher } from '../src/contracts/realtime-publisher';
import type { Logger } from '../src/logging/logger';
import { matchingCollections } from '../src/matching/collections';
import { UNCONFIGURED_CHAIN, type SettlementChain } from '../src/settlement/settlement-chain';
import { createMarketActivities } from './market.activities';
import { createSettlementActivities } from './settlement.activities';

/** What activities may touch: they are the only place workflows reach Mongo, the chain or sockets. */
export interface ActivityDeps {
  db: Connection;
  logger: Logger;
  /** Realtime fan-out (src/gateway); defaults to dropping events (REST stays correct). */
  publisher?: RealtimePublisher;
  /** Settlement port (src/chain); defaults to UNCONFIGURED_CHAIN (fills retry, then fail). */
  chain?: SettlementChain;
  /** Receipt polling interval of settlement, ms. */
  chainPollMs?: number;
}

export const NO_PUBLISHER: RealtimePublisher = { publish: () => Promise.resolve() };

/** Builds the activity implementations the worker registers. */
export function createActivities(deps: ActivityDeps) {
  const collections = matchingCollections(deps.db);
  const publisher = deps.publisher ?? NO_PUBLISHER;
  return {
    ...createMarketActivities({ collections, publisher, logger: deps.logger }),
    ...createSettlementActivities({ collections, publisher, logger: deps.logger, chain: deps.chain ?? UNCONFIGURED_CHAIN, pollMs: deps.chainPollMs }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
