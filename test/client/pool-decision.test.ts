/**
 * The demo pool bot's decision: what a step buys or sells from what the wallet holds, and the
 * bounds that keep it from draining the wallet.
 */
import { decidePoolTrade, type PoolLimits, type PoolWallet } from '../../src/bots/pool-decision';

const E18 = 10n ** 18n;
const limits: PoolLimits = { maxSpend: 5n * E18, reserve: 100n * E18, minAmount: 10n ** 16n };
const draws = (...values: number[]) => () => values.shift() ?? 0;

describe('the pool bot\'s decision', () => {
  it('when the wallet has collateral and the draws say buy YES at half, then it spends half of the most a buy may', () => {
    expect(decidePoolTrade({ collateral: 1_000n * E18, shares: [0n, 0n] }, limits, draws(0.9, 0.7, 0.4995))).toEqual({ side: 'BUY', outcome: 1, amount: 2_500n * 10n ** 15n });
  });

  it('when the draws say sell, then it sells part of at most half its larger holding', () => {
    expect(decidePoolTrade({ collateral: 1_000n * E18, shares: [8n * E18, 2n * E18] }, limits, draws(0.1, 0.9, 0.999))).toEqual({ side: 'SELL', outcome: 0, amount: 4n * E18 });
  });

  it('when a buy would dig into the reserve, then it buys only what is above it, and nothing at the reserve', () => {
    expect(decidePoolTrade({ collateral: 101n * E18, shares: [0n, 0n] }, limits, draws(0.9, 0.1, 0.999))).toEqual({ side: 'BUY', outcome: 0, amount: E18 });
    expect(decidePoolTrade({ collateral: 100n * E18, shares: [0n, 0n] }, limits, draws(0.9, 0.1, 0.999))).toBeNull();
    expect(decidePoolTrade({ collateral: 3n * E18, shares: [0n, 0n] }, limits, draws(0.9, 0.1, 0.999))).toBeNull();
  });

  it('when it cannot buy but holds shares, then it sells; when it wants to sell but holds none, then it buys', () => {
    expect(decidePoolTrade({ collateral: 50n * E18, shares: [0n, 6n * E18] }, limits, draws(0.9, 0.1, 0.999))).toEqual({ side: 'SELL', outcome: 1, amount: 3n * E18 });
    expect(decidePoolTrade({ collateral: 200n * E18, shares: [0n, 0n] }, limits, draws(0.1, 0.9, 0.999))).toEqual({ side: 'BUY', outcome: 1, amount: 5n * E18 });
  });

  it('when it steps many times at random, then no buy passes the spend cap or the reserve and no sell passes half a holding', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 2_000; i++) {
      const wallet: PoolWallet = { collateral: BigInt(Math.floor(random() * 300)) * E18, shares: [BigInt(Math.floor(random() * 20)) * E18, BigInt(Math.floor(random() * 20)) * E18] };
      const decision = decidePoolTrade(wallet, limits, random);
      if (!decision) continue;
      expect(decision.amount).toBeGreaterThanOrEqual(limits.minAmount);
      if (decision.side === 'BUY') {
        expect(decision.amount).toBeLessThanOrEqual(limits.maxSpend);
        expect(wallet.collateral - decision.amount).toBeGreaterThanOrEqual(limits.reserve);
      } else {
        expect(decision.amount * 2n).toBeLessThanOrEqual(wallet.shares[decision.outcome]);
      }
    }
  });
});
