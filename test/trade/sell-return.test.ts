/**
 * An AMM SELL quote searches the largest collateral return whose calcSellAmount fits the shares.
 * The search starts from a bracket around the curve's closed-form root; it must find exactly what
 * the search over the whole range [0, maxSellReturn] finds, for any pool, fee and size.
 */
import { calcSellAmount, maxSellReturn, sellReturnFor, type PoolBalances } from '../../src/amm/pool-math';

const E18 = 10n ** 18n;

/** The plain search over the whole range. */
function fullSearch(balances: PoolBalances, feeBps: bigint, shares: bigint, outcome: 0 | 1): bigint {
  let low = 0n;
  let high = maxSellReturn(balances, feeBps, outcome);
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if (calcSellAmount(balances, feeBps, mid, outcome) <= shares) low = mid;
    else high = mid - 1n;
  }
  return low;
}

function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('sellReturnFor: the bracketed search equals the full one', () => {
  test('when random pools, fees and sizes are sold, then both searches return the same wei', () => {
    const random = generator(2026);
    const wei = (scale: bigint) => (BigInt(Math.floor(random() * 1e9)) * scale) / 1_000_000_000n + BigInt(Math.floor(random() * 1000));
    let checked = 0;
    for (let i = 0; i < 3_000; i += 1) {
      const balances: PoolBalances = [1n + wei(10_000n * E18), 1n + wei(10_000n * E18)];
      const feeBps = BigInt([0, 1, 100, 175, 500, 9_999][i % 6]);
      const shares = [0n, 1n, 999n, wei(E18), wei(100n * E18), wei(100_000n * E18), 10n ** 30n][i % 7];
      const outcome = (i % 2) as 0 | 1;
      expect(sellReturnFor(balances, feeBps, shares, outcome)).toBe(fullSearch(balances, feeBps, shares, outcome));
      checked += 1;
    }
    expect(checked).toBe(3_000);
  });
});
