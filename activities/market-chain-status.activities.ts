/**
 * What the chain-status workflow does (workflows/market-chain-status.workflow.ts): bring the chain
 * in line with the market's status as it is now in the database. Every step is idempotent (payouts
 * already reported, a pool already paused or closed, send nothing), so retries and repeated passes
 * are safe.
 */
import { ApplicationFailure } from '@temporalio/common';
import { getAddress, type Hex } from 'viem';
import type { Connection } from 'mongoose';
import { closePool, setPoolPaused } from '../src/amm/pool-operations';
import type { ChainContext } from '../src/chain/chain-context';
import { reportPayouts } from '../src/chain/conditions';
import { conditionIdOf } from '../src/chain/position-ids';
import type { MarketRecord } from '../src/db/models';
import type { MarketChainStatusInput } from '../src/markets/market-chain-status-input';
import { createMarketStore } from '../src/markets/market-store';

export interface MarketChainStatusDeps {
  db: Connection;
  /** The operator's chain context; throws when this worker has no chain. */
  chain: () => ChainContext;
}

/** A status the chain cannot be brought to by retrying (no question id, another oracle's condition). */
function refused(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, 'ChainStatusRefused');
}

async function reportResolution(ctx: ChainContext, market: MarketRecord): Promise<void> {
  const outcome = market.resolution_outcome;
  if (outcome !== 0 && outcome !== 1) throw refused(`market ${market.condition_id} is RESOLVED without an outcome`);
  if (!market.question_id) throw refused(`market ${market.condition_id} has no question id: its oracle is not this operator`);
  const questionId = market.question_id as Hex;
  if (conditionIdOf(ctx.operator.address, questionId).toLowerCase() !== market.condition_id.toLowerCase()) {
    throw refused(`market ${market.condition_id} was prepared by another oracle`);
  }
  await reportPayouts(ctx, questionId, outcome);
}

export function createMarketChainStatusActivities(deps: MarketChainStatusDeps) {
  const store = createMarketStore(deps.db);
  return {
    /** One pass: what the market's status asks of the chain now; answers what it did. */
    async applyMarketChainStatus(input: MarketChainStatusInput): Promise<string> {
      const key = { chain_id: input.chain_id, condition_id: input.condition_id.toLowerCase() };
      const market = await store.markets.findOne(key).lean<MarketRecord>().exec();
      if (!market) throw refused(`market ${key.chain_id}/${key.condition_id} not found`);
      const pool = market.kind === 'AMM' && market.amm?.pool_address ? getAddress(market.amm.pool_address) : undefined;
      const done: string[] = [];
      if (market.status === 'RESOLVED') {
        await reportResolution(deps.chain(), market);
        done.push('payouts reported');
        if (pool) {
          await closePool(deps.chain(), pool);
          done.push('pool closed');
        }
      } else if (pool && market.status !== 'SEEDING') {
        // CLOSED pauses rather than closes: a CLOSED market may reopen, a closed pool never does.
        const paused = market.status !== 'OPEN';
        await setPoolPaused(deps.chain(), pool, paused);
        done.push(paused ? 'pool paused' : 'pool open');
      }
      return `${market.status}: ${done.length ? done.join(', ') : 'nothing on chain'}`;
    },
  };
}

export type MarketChainStatusActivities = ReturnType<typeof createMarketChainStatusActivities>;
