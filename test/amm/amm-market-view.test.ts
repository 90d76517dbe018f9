/**
 * The Market's `amm` block from the pool-state cache: prices from the balances at the state's block,
 * one read per pool per request batch, and no prices (rather than a failed listing) for a pool not
 * deployed, not funded, or not readable now; CLOB markets get no block.
 */
import type { Address } from 'viem';
import { ammViewsOf, marketKey } from '../../src/amm/amm-market-view';
import type { PoolState, PoolStateReader } from '../../src/amm/pool-state';
import type { MarketRecord } from '../../src/db/models';
import { presentMarket } from '../../src/markets/present-market';

const POOL = '0x00000000000000000000000000000000000000aa';
const E18 = 10n ** 18n;

function market(overrides: Partial<MarketRecord>): MarketRecord {
  const at = new Date('2026-01-01T00:00:00Z');
  return {
    chain_id: 56, condition_id: `0x${'1'.repeat(64)}`, question_id: null, question: 'Q?', kind: 'AMM', status: 'OPEN', resolution_outcome: null,
    status_version: 1, fee_rate_bps: 100, summary: { en: '' }, rules: { en: '' }, tokens: [], collateral_token: POOL, ctf_exchange_address: POOL,
    conditional_tokens_address: POOL, end_date: at, created_at: at, updated_at: at, amm: { pool_address: POOL, liquidity: '1000' }, ...overrides,
  };
}

function reader(state: Partial<PoolState> | Error): PoolStateReader & { reads: Address[] } {
  const reads: Address[] = [];
  return {
    reads,
    async read(pool) {
      reads.push(pool);
      if (state instanceof Error) throw state;
      return { pool, balances: [600n * E18, 1500n * E18], feeBps: 100n, totalShares: 1000n * E18, collectedFees: 0n, paused: false, closed: false, resolved: false, blockNumber: 42n, ...state };
    },
    invalidate() {},
  };
}

describe('the Market amm block', () => {
  it('when the pool is funded, then prices are p_i = b_j / (b_0 + b_1) at the block the state was read at', async () => {
    const r = reader({});
    const m = market({});
    const views = await ammViewsOf([m, market({ kind: 'CLOB', condition_id: `0x${'2'.repeat(64)}`, amm: null })], () => r);
    // p0 = 1500 / 2100, p1 = 600 / 2100, rounded down to 6 decimals.
    expect(views.get(marketKey(m))).toEqual({ pool_address: POOL, liquidity: '1000', fee_rate_bps: 100, prices: ['0.714285', '0.285714'], block_number: '42' });
    expect(views.size).toBe(1);
    expect(r.reads).toHaveLength(1);
  });

  it('when the market is SEEDING without a pool, then it shows no pool and no prices, and nothing is read', async () => {
    const r = reader({});
    const seeding = market({ status: 'SEEDING', amm: null });
    const views = await ammViewsOf([seeding], () => r);
    expect(presentMarket(seeding, null, 'en', views.get(marketKey(seeding))).amm).toEqual({ pool_address: null, liquidity: '0', fee_rate_bps: 100, prices: null, block_number: null });
    expect(r.reads).toEqual([]);
  });

  it('when the pool is deployed but not funded, or the chain cannot be read, then prices are null and the listing still answers', async () => {
    const m = market({});
    expect((await ammViewsOf([m], () => reader({ totalShares: 0n, balances: [0n, 0n] }))).get(marketKey(m))?.prices).toBeNull();
    expect((await ammViewsOf([m], () => reader(new Error('rpc down')))).get(marketKey(m))).toMatchObject({ prices: null, block_number: null, liquidity: '1000' });
  });

  it('when a market is CLOB, then its Market has no amm block', () => {
    expect(presentMarket(market({ kind: 'CLOB', amm: null }), null, 'en')).not.toHaveProperty('amm');
  });
});
