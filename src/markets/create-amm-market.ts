/**
 * Creates an AMM market (decisions section 9): the market is recorded SEEDING, then the worker's
 * setup workflow deploys and funds its pool and opens it. The API process never holds the
 * operator key for this: the pool's transactions are the worker's.
 */
import type { MarketRecord } from '../db/models';
import { AppError } from '../errors';
import { InvalidDecimalError, parseUnitsStrict } from '../money';
import type { AmmMarketSetupInput } from '../amm/amm-setup-input';
import { createMarket, type CreateMarketDeps, type CreateMarketInput } from './create-market';

/** Starts `amm-setup-{chain_id}-{condition_id}` (src/temporal/amm-setup.client.ts). */
export interface AmmSetupStarter {
  start(input: AmmMarketSetupInput): Promise<void>;
}

export interface CreateAmmMarketDeps extends CreateMarketDeps {
  /** Absent (no Temporal): the market is recorded SEEDING and waits for a setup started later. */
  ammSetup?: AmmSetupStarter;
  /** Local chains fund the pool from the collateral's open mint, and default the liquidity. */
  localChain?: boolean;
}

/** Initial liquidity when the operator gives none, on local chains only. */
export const DEFAULT_LOCAL_LIQUIDITY = '1000';

export function liquidityUnits(liquidity: string | undefined, decimals: number, localChain: boolean): bigint {
  const given = liquidity ?? (localChain ? DEFAULT_LOCAL_LIQUIDITY : undefined);
  if (given === undefined) throw new AppError('VALIDATION_ERROR', 'initial_liquidity is required for AMM markets on this chain');
  let units: bigint;
  try {
    units = parseUnitsStrict(given, decimals);
  } catch (error) {
    if (error instanceof InvalidDecimalError) throw new AppError('VALIDATION_ERROR', `initial_liquidity: ${error.message}`);
    throw error;
  }
  if (units === 0n) throw new AppError('VALIDATION_ERROR', 'initial_liquidity must be greater than zero');
  return units;
}

export async function createAmmMarket(deps: CreateAmmMarketDeps, input: CreateMarketInput & { initial_liquidity?: string }): Promise<MarketRecord> {
  const chain = deps.chains.require(input.chain_id);
  const units = liquidityUnits(input.initial_liquidity, chain.collateral_decimals, deps.localChain ?? false);
  const { initial_liquidity: _liquidity, ...rest } = input;
  const market = await createMarket(deps, { ...rest, kind: 'AMM', status: 'SEEDING' });
  await deps.ammSetup?.start({
    chain_id: market.chain_id,
    condition_id: market.condition_id,
    fee_rate_bps: market.fee_rate_bps,
    liquidity: units.toString(),
    mint: deps.localChain ?? false,
    actor: input.actor ?? 'admin',
  });
  return market;
}
