import fc from 'fast-check';
import { canTrade, collateralOf, feeOf, LOT_SIZE, lotFloor, signedAmounts, toYesPrice } from '../../src/engine';

describe('fee math', () => {
  it.each([
    // [size, ticks, bps, expected fee] — fee = floor(bps * min(p, 100-p) * size / 1e6)
    [10_000_000n, 50, 100, 50_000n], // 1% of 0.50 on 10 shares (D = 6) = 0.05
    [10_000_000n, 1, 100, 1_000n], // edge tick 1: min(p, 1-p) = 0.01
    [10_000_000n, 99, 100, 1_000n], // symmetric at 99
    [10_000_000n, 100, 100, 0n], // p = 1: no fee
    [10_000_000n, 0, 100, 0n], // p = 0 (NO leg of a trade at YES 100): no fee
    [10_000_000n, 50, 0, 0n], // zero rate
    [100n, 50, 10_000, 50n], // 100% rate on the smallest lot
    [100n, 1, 1, 0n], // 1e-4 base units floors to 0
    [1_000_000_000_000_000_000n, 37, 25, 925_000_000_000_000n], // 18 decimals, 0.25% of 0.37
  ])('when %s units trade at %s ticks with %s bps, then the fee is %s', (size, ticks, bps, expected) => {
    expect(feeOf(size, ticks, bps)).toBe(expected);
  });

  it('when the fee is computed, then it never exceeds the exact rational fee and is within one unit of it', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10_000 }), (lots, ticks, bps) => {
      const size = lots * LOT_SIZE;
      const exactTimes1e6 = BigInt(bps) * BigInt(Math.min(ticks, 100 - ticks)) * size;
      const fee = feeOf(size, ticks, bps);
      expect(fee * 1_000_000n <= exactTimes1e6).toBe(true);
      expect((fee + 1n) * 1_000_000n > exactTimes1e6).toBe(true);
    }));
  });
});

describe('collateral and signed amounts', () => {
  it('when the size is a lot multiple, then collateral at any tick is exact and YES + NO collateral is the size', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.integer({ min: 0, max: 100 }), (lots, ticks) => {
      const size = lots * LOT_SIZE;
      expect(collateralOf(size, ticks) * 100n).toBe(size * BigInt(ticks));
      expect(collateralOf(size, ticks) + collateralOf(size, 100 - ticks)).toBe(size);
    }));
  });

  it('when amounts are signed, then BUY rounds up and SELL rounds down (decisions section 1)', () => {
    expect(signedAmounts('BUY', 150n, 33)).toEqual({ makerAmount: 50n, takerAmount: 150n });
    expect(signedAmounts('SELL', 150n, 33)).toEqual({ makerAmount: 150n, takerAmount: 49n });
    expect(signedAmounts('BUY', 1_000_000n, 55)).toEqual({ makerAmount: 550_000n, takerAmount: 1_000_000n });
  });

  it('when a NO price is translated, then it becomes 100 minus the price in YES terms', () => {
    expect(toYesPrice(0, 45)).toBe(55);
    expect(toYesPrice(0, 100)).toBe(0);
    expect(toYesPrice(1, 45)).toBe(45);
  });
});

describe('lots', () => {
  it('when a size is not a whole number of lots, then lotFloor keeps its whole lots and canTrade says whether one is left', () => {
    expect(lotFloor(10n ** 17n + 1n)).toBe(10n ** 17n);
    expect(lotFloor(199n)).toBe(100n);
    expect(lotFloor(99n)).toBe(0n);
    expect([canTrade(99n), canTrade(100n), canTrade(0n), canTrade(10n ** 17n + 1n)]).toEqual([false, true, false, true]);
  });
});
