/**
 * What the AMM market setup workflow does (workflows/amm-market-setup.workflow.ts): operator
 * transactions on the pool and the market record's pool and status. Each is idempotent.
 */
import { getAddress, type Hex } from 'viem';
import type { Connection } from 'mongoose';
import { deployPool, fundPool } from '../src/amm/pool-operations';
import type { ChainContext } from '../src/chain/chain-context';
import type { MarketRecord } from '../src/db/models';
import { AppError } from '../src/errors';
import { formatCanonical } from '../src/money';
import { createMarketStore } from '../src/markets/market-store';
import { createMongoMarketStatusChanger, statusChangeId } from '../src/markets/market-status-changer';

export interface AmmSetupDeps {
  db: Connection;
  /** The operator's chain context; throws when this worker has no chain. */
  chain: () => ChainContext;
}

interface MarketKey {
  chain_id: number;
  condition_id: string;
}

export function createAmmSetupActivities(deps: AmmSetupDeps) {
  const store = createMarketStore(deps.db);
  const changer = createMongoMarketStatusChanger(store);
  const keyOf = ({ chain_id, condition_id }: MarketKey): MarketKey => ({ chain_id, condition_id });
  const marketOf = async (input: MarketKey): Promise<MarketRecord> => {
    const key = keyOf(input);
    const market = await store.markets.findOne(key).lean<MarketRecord>().exec();
    if (!market) throw new AppError('NOT_FOUND', `market ${key.chain_id}/${key.condition_id} not found`);
    return market;
  };

  return {
    /** The market's pool: the recorded one, else a new deployment recorded at once. */
    async deployAmmPool(input: MarketKey & { fee_rate_bps: number }): Promise<string> {
      const market = await marketOf(input);
      if (market.amm?.pool_address) return market.amm.pool_address;
      const pool = await deployPool(deps.chain(), input.condition_id as Hex, input.fee_rate_bps);
      await store.markets.updateOne(keyOf(input), { $set: { amm: { pool_address: pool.toLowerCase(), liquidity: '0' }, updated_at: new Date() } }).exec();
      return pool.toLowerCase();
    },

    /** Funds the pool unless it already has liquidity, and records the funded amount. */
    async fundAmmPool(input: MarketKey & { pool_address: string; liquidity: string; mint: boolean }): Promise<void> {
      const market = await marketOf(input);
      await fundPool(deps.chain(), getAddress(input.pool_address), BigInt(input.liquidity), { onlyIfEmpty: true, mint: input.mint });
      const decimals = market.tokens[0]?.decimals ?? 18;
      await store.markets.updateOne(keyOf(input), {
        $set: { amm: { pool_address: input.pool_address, liquidity: formatCanonical(BigInt(input.liquidity), decimals) }, updated_at: new Date() },
      }).exec();
    },

    /** SEEDING -> OPEN with its audit row; false when the market was no longer SEEDING. */
    async openAmmMarket(input: MarketKey & { actor: string }): Promise<boolean> {
      const market = await marketOf(input);
      if (market.status !== 'SEEDING') return false;
      try {
        await changer.changeStatus({
          chainId: input.chain_id, conditionId: input.condition_id, from: 'SEEDING', to: 'OPEN', resolutionOutcome: null, actor: input.actor, via: 'amm-setup',
        });
      } catch (error) {
        // A retry after the audit row was written but before the market was: finish that change.
        const version = (market.status_version ?? 0) + 1;
        const claimed = await store.statusChanges.findOne({ change_id: statusChangeId(input.chain_id, input.condition_id, version) }).lean().exec();
        if (claimed?.to_status !== 'OPEN' || claimed.via !== 'amm-setup') throw error;
        await store.markets.updateOne({ ...keyOf(input), status: 'SEEDING' }, { $set: { status: 'OPEN', status_version: version, updated_at: new Date() } }).exec();
      }
      return true;
    },
  };
}

export type AmmSetupActivities = ReturnType<typeof createAmmSetupActivities>;
