/**
 * What the AMM funding workflow does (workflows/amm-funding.workflow.ts): the operator's added
 * liquidity on the pool and on the market record, each step safe to retry.
 */
import { ApplicationFailure } from '@temporalio/common';
import { getAddress } from 'viem';
import type { Connection } from 'mongoose';
import { fundPool, poolShares } from '../src/amm/pool-operations';
import type { ChainContext } from '../src/chain/chain-context';
import type { MarketRecord } from '../src/db/models';
import { formatCanonical, parseUnitsStrict } from '../src/money';
import { createMarketStore } from '../src/markets/market-store';

interface MarketKey {
  chain_id: number;
  condition_id: string;
}

export function createAmmFundingActivities(deps: { db: Connection; chain: () => ChainContext }) {
  const store = createMarketStore(deps.db);
  const marketOf = async ({ chain_id, condition_id }: MarketKey): Promise<MarketRecord> => {
    const market = await store.markets.findOne({ chain_id, condition_id: condition_id.toLowerCase() }).lean<MarketRecord>().exec();
    if (!market?.amm?.pool_address) throw ApplicationFailure.nonRetryable(`AMM market ${chain_id}/${condition_id} has no pool`, 'AmmFundingRefused');
    return market;
  };
  return {
    /** The pool, its shares now and the liquidity recorded now: what the later steps compare with. */
    async readAmmFunding(input: MarketKey): Promise<{ pool_address: string; shares: string; liquidity: string }> {
      const market = await marketOf(input);
      const pool = market.amm!.pool_address;
      return { pool_address: pool, shares: (await poolShares(deps.chain(), getAddress(pool))).toString(), liquidity: market.amm!.liquidity };
    },

    /** Adds the funding unless the pool's shares already grew since `shares_before` (only the operator funds). */
    async addAmmFunding(input: { pool_address: string; shares_before: string; amount: string; mint: boolean }): Promise<void> {
      const pool = getAddress(input.pool_address);
      if ((await poolShares(deps.chain(), pool)) > BigInt(input.shares_before)) return;
      await fundPool(deps.chain(), pool, BigInt(input.amount), { mint: input.mint });
    },

    /** liquidity_before + amount, written only over liquidity_before; answers the recorded liquidity. */
    async recordAmmFunding(input: MarketKey & { liquidity_before: string; amount: string }): Promise<{ liquidity: string }> {
      const market = await marketOf(input);
      const decimals = market.tokens[0]?.decimals ?? 18;
      const after = formatCanonical(parseUnitsStrict(input.liquidity_before, decimals) + BigInt(input.amount), decimals);
      await store.markets.updateOne(
        { chain_id: market.chain_id, condition_id: market.condition_id, 'amm.liquidity': input.liquidity_before },
        { $set: { 'amm.liquidity': after, updated_at: new Date() } },
      ).exec();
      return { liquidity: (await marketOf(input)).amm!.liquidity };
    },
  };
}

export type AmmFundingActivities = ReturnType<typeof createAmmFundingActivities>;
