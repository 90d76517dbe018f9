import type { AmmFunder } from '../amm/amm-funding-input';
import type { MarketRecord } from '../db/models';
import { AppError } from '../errors';
import { InvalidDecimalError, parseUnitsStrict } from '../money';
import type { ChainRegistry } from './chains';
import type { MarketStore } from './market-store';

export interface FundAmmMarketDeps {
  store: MarketStore;
  chains: ChainRegistry;
  /** Absent (no Temporal): funding is refused. */
  ammFunder?: AmmFunder;
  localChain?: boolean;
}

/**
 * Adds operator liquidity to an AMM market's pool (`POST /admin/markets/{id}/liquidity`), through
 * the worker, and answers the market as it is after. A market without a funded pool yet (SEEDING)
 * or RESOLVED cannot take more: its setup funds it, and a resolved pool only pays out.
 */
export async function fundAmmMarket(deps: FundAmmMarketDeps, input: { chainId?: number; conditionId: string; amount: string }): Promise<MarketRecord> {
  const chain = deps.chains.require(input.chainId);
  const key = { chain_id: chain.chain_id, condition_id: input.conditionId.toLowerCase() };
  const market = await deps.store.markets.findOne(key).lean<MarketRecord>().exec();
  if (!market) throw new AppError('NOT_FOUND', 'Market not found');
  if (market.kind !== 'AMM') throw new AppError('VALIDATION_ERROR', 'Only AMM markets have a pool to fund');
  if (market.status === 'SEEDING' || market.status === 'RESOLVED' || !market.amm?.pool_address) {
    throw new AppError('MARKET_NOT_ACTIVE', `Market is ${market.status}: its pool cannot take liquidity now`);
  }
  let units: bigint;
  try {
    units = parseUnitsStrict(input.amount, chain.collateral_decimals);
  } catch (error) {
    if (error instanceof InvalidDecimalError) throw new AppError('VALIDATION_ERROR', `amount: ${error.message}`);
    throw error;
  }
  if (units === 0n) throw new AppError('VALIDATION_ERROR', 'amount must be greater than zero');
  if (!deps.ammFunder) throw new AppError('SERVICE_DEGRADED', 'Pool funding needs the worker, which is not configured here');
  await deps.ammFunder.fund({ ...key, amount: units.toString(), mint: deps.localChain ?? false });
  return (await deps.store.markets.findOne(key).lean<MarketRecord>().exec()) ?? market;
}
