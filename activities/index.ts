import type { Connection } from 'mongoose';
import type { HandoffHolder } from '../src/ports/market-matcher';
import type { RealtimePublisher } from '../src/ports/realtime-publisher';
import type { Logger } from '../src/logging/logger';
import { matchingCollections } from '../src/matching/collections';
import { createStepPriority } from '../src/matching/step-priority';
import { UNCONFIGURED_CHAIN, type SettlementChain } from '../src/settlement/settlement-port';
import { createHeartbeatStore, heartbeatsCollection } from '../src/heartbeat/beat-store';
import { createHeartbeatActivities } from './heartbeat.activities';
import { createMarketActivities } from './market.activities';
import { createSettlementActivities } from './settlement.activities';
import { createSettlementPartyActivities } from './settlement-parties.activities';
import { createChainWatcherActivities, type WatchChain } from './chain-watcher.activities';
import { createTradeTxActivities } from './trade-tx.activities';
import type { DecodePoolTrades } from '../src/trade/pool-trades-port';
import type { TradeTxChain } from '../src/trade/trade-tx-chain';
import { createAmmSetupActivities } from './amm-setup.activities';
import { createMarketChainStatusActivities } from './market-chain-status.activities';
import { createAmmFundingActivities } from './amm-funding.activities';
import { createPoolWatcherActivities } from './pool-watcher.activities';
import type { PoolWatchChain } from '../src/amm/pool-logs';
import type { ChainContext } from '../src/chain/chain-context';
import { createConditionActivities, type ConditionChain } from './condition.activities';
import { timed } from '../src/logging/stage-timings';
import { activityDuration, secondsSince } from '../src/metrics/metrics';

/** What activities may touch: they are the only place workflows reach Mongo, the chain or sockets. */
export interface ActivityDeps {
  db: Connection;
  logger: Logger;
  /** Realtime fan-out (src/gateway); defaults to dropping events (REST stays correct). */
  publisher?: RealtimePublisher;
  /** Settlement port (src/chain); defaults to UNCONFIGURED_CHAIN (fills retry, then fail). */
  chain?: SettlementChain;
  /** This process's own hand-offs (the sweeper's matcher client): a market continuing as new holds them. */
  handoffs?: HandoffHolder;
  /** Receipt polling interval of settlement, ms. */
  chainPollMs?: number;
  /** How long a settlement send waits on for its confirmations before taking the MINED path, ms (default 3000). */
  confirmWaitMs?: number;
  /** What the chain watcher reads (watchChainOf(chain port)); unset: its scans fail and it waits. */
  watchedChain?: () => WatchChain;
  /** The chain port that prepares market conditions (it holds the operator key); unset: preparing fails. */
  conditionChain?: () => ConditionChain;
  /** Longest wait of a settlement database command for this process's market steps, ms (0 or unset: none). */
  settlementYieldMs?: number;
  /** What saved transactions' workflows read (tradeTxChainOf(chain port)); unset: their receipt reads fail and are retried. */
  tradeTxChain?: () => TradeTxChain;
  /** Pool events of saved transactions (the AMM venue's decoder); unset: none. */
  decodePoolTrades?: DecodePoolTrades;
  /** The operator's chain context for AMM pool setup, pool status and payouts; unset: those activities fail and retry. */
  operatorChain?: () => ChainContext;
  /** What the pool watchers read (poolWatchChainOf(chain context, confirmations)); unset: their scans fail and they wait. */
  poolWatchChain?: () => PoolWatchChain;
}

const noOperatorChain = (): ChainContext => {
  throw new Error('no chain configured for operator transactions (AMM pools, payouts)');
};

const noWatchedChain = (): WatchChain => {
  throw new Error('no chain configured for the chain watcher');
};

const noPoolWatchChain = (): PoolWatchChain => {
  throw new Error('no chain configured for the pool watchers');
};

const noTradeTxChain = (): TradeTxChain => {
  throw new Error('no chain configured for saved transactions');
};

const noConditionChain = (): ConditionChain => {
  throw new Error('no chain configured for preparing conditions');
};

export const NO_PUBLISHER: RealtimePublisher = { publish: () => Promise.resolve() };

/** Builds the activity implementations the worker registers. */
export function createActivities(deps: ActivityDeps) {
  const collections = matchingCollections(deps.db);
  const publisher = deps.publisher ?? NO_PUBLISHER;
  // One for the process: settlement's commands wait for the market steps of this worker.
  const priority = createStepPriority({ maxWaitMs: deps.settlementYieldMs ?? 0 });
  return timedEach({
    ...createHeartbeatActivities({ collections, heartbeats: createHeartbeatStore(heartbeatsCollection(deps.db)) }),
    ...createMarketActivities({ collections, publisher, logger: deps.logger, handoffs: deps.handoffs, priority }),
    ...createSettlementActivities({
      collections, publisher, logger: deps.logger, chain: deps.chain ?? UNCONFIGURED_CHAIN, pollMs: deps.chainPollMs, confirmWaitMs: deps.confirmWaitMs, priority,
    }),
    ...createSettlementPartyActivities({ collections }),
    ...createChainWatcherActivities({ collections, logger: deps.logger, chain: deps.watchedChain ?? noWatchedChain }),
    ...createTradeTxActivities({ db: deps.db, publisher, chain: deps.tradeTxChain ?? noTradeTxChain, decodePoolTrades: deps.decodePoolTrades }),
    ...createAmmSetupActivities({ db: deps.db, chain: deps.operatorChain ?? noOperatorChain }),
    ...createMarketChainStatusActivities({ db: deps.db, chain: deps.operatorChain ?? noOperatorChain }),
    ...createAmmFundingActivities({ db: deps.db, chain: deps.operatorChain ?? noOperatorChain }),
    ...createConditionActivities({ chain: deps.conditionChain ?? noConditionChain }),
    ...createPoolWatcherActivities({ db: deps.db, publisher, logger: deps.logger, chain: deps.poolWatchChain ?? noPoolWatchChain }),
  });
}

/** Each activity timed as stage `activity.{name}` (src/logging/stage-timings.ts) and in predex_activity_duration_seconds. */
function timedEach<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(activities)) {
    wrapped[name] = async (...args: never[]) => {
      const started = performance.now();
      let outcome = 'failed';
      try {
        const result = await timed(`activity.${name}`, () => run(...args));
        outcome = 'ok';
        return result;
      } finally {
        activityDuration.observe({ activity: name, outcome }, secondsSince(started));
      }
    };
  }
  return wrapped as T;
}

export type Activities = ReturnType<typeof createActivities>;
