/**
 * The Market's `amm` block (decisions section 9): the pool, the collateral funded, the fee and the
 * outcome prices implied by the pool's balances, read from the shared pool-state cache (one
 * `poolState()` per pool per block however many requests ask), so a listing never reads the chain
 * per request. A market whose pool is not deployed or funded yet, or whose chain cannot be read
 * now, shows `prices: null` and `block_number: null` instead of failing the listing.
 */
import { getAddress } from 'viem';
import type { MarketRecord } from '../db/models';
import { poolPrices } from './amm-quote';
import type { PoolStateReader } from './pool-state';

export interface AmmView {
  pool_address: string | null;
  /** Collateral the operator has funded the pool with, decimal. */
  liquidity: string;
  fee_rate_bps: number;
  /** [p0, p1], p_i = b_j / (b_0 + b_1), rounded down to 6 decimals; null until the pool is funded. */
  prices: [string, string] | null;
  /** The block the prices are exact at, decimal; null with the prices. */
  block_number: string | null;
}

/** The cached pool-state reader of a chain this process serves, else undefined. */
export type PoolStatesFor = (chainId: number) => PoolStateReader | undefined;

export function marketKey(market: Pick<MarketRecord, 'chain_id' | 'condition_id'>): string {
  return `${market.chain_id}:${market.condition_id}`;
}

/** The block from the market record alone, without prices (a new market, no chain read). */
export function storedAmmView(market: MarketRecord): AmmView {
  return { pool_address: market.amm?.pool_address ?? null, liquidity: market.amm?.liquidity ?? '0', fee_rate_bps: market.fee_rate_bps, prices: null, block_number: null };
}

async function ammViewOf(market: MarketRecord, poolStates: PoolStatesFor | undefined): Promise<AmmView> {
  const view = storedAmmView(market);
  const pool = view.pool_address;
  const reader = pool ? poolStates?.(market.chain_id) : undefined;
  if (!pool || !reader) return view;
  const state = await reader.read(getAddress(pool)).catch(() => undefined);
  if (!state || state.totalShares === 0n) return view;
  return { ...view, prices: poolPrices(state.balances), block_number: state.blockNumber.toString() };
}

/** The `amm` blocks of the AMM markets among `markets`, keyed by `marketKey`; pools are read concurrently. */
export async function ammViewsOf(markets: MarketRecord[], poolStates: PoolStatesFor | undefined): Promise<Map<string, AmmView>> {
  const amm = markets.filter((m) => m.kind === 'AMM');
  const views = await Promise.all(amm.map((m) => ammViewOf(m, poolStates)));
  return new Map(amm.map((m, i) => [marketKey(m), views[i]]));
}
