import { quoteClob, takenLevels } from '../../src/trade/clob-quote';
import { worstTicksWithin } from '../../src/trade/clob-trade';

const E18 = 10n ** 18n;
const shares = (n: number) => (BigInt(Math.round(n * 1000)) * E18) / 1000n;

describe('CLOB quote: the book walked as a MARKET order would take it', () => {
  const book = {
    bids: [{ ticks: 40, remaining: shares(10) }, { ticks: 38, remaining: shares(5) }],
    asks: [{ ticks: 60, remaining: shares(10) }, { ticks: 65, remaining: shares(4) }],
  };

  test('when a BUY YES spends collateral, then it takes the asks cheapest first and pays the fee out of the amount', () => {
    // 10 shares at 0.60 = 6, fee 1% of min(0.6, 0.4) x 10 = 0.04; 1 share at 0.65 = 0.65, fee 0.0035.
    const q = quoteClob({ side: 'BUY', outcome: 1, amount: (66935n * E18) / 10_000n, feeRateBps: 100, ...book });
    expect(q.shares).toBe(shares(11));
    expect(q.notional).toBe((665n * E18) / 100n);
    expect(q.fee).toBe((435n * E18) / 10_000n);
    expect(q.notional + q.fee).toBe((66935n * E18) / 10_000n);
    expect([q.beforeTicks, q.afterTicks, q.worstTicks, q.partial]).toEqual([60, 65, 65, false]);
  });

  test('when a BUY NO spends collateral, then it takes the YES bids as NO asks at 1 - p', () => {
    expect(takenLevels({ side: 'BUY', outcome: 0, ...book }).map((l) => l.ticks)).toEqual([60, 62]);
    const q = quoteClob({ side: 'BUY', outcome: 0, amount: 6n * E18, feeRateBps: 0, ...book });
    expect(q.shares).toBe(shares(10));
    expect(q.worstTicks).toBe(60);
  });

  test('when a SELL is larger than the book, then the quote is partial with what the book takes', () => {
    const q = quoteClob({ side: 'SELL', outcome: 1, amount: shares(20), feeRateBps: 0, ...book });
    expect(q.shares).toBe(shares(15));
    expect(q.notional).toBe(4n * E18 + (19n * E18) / 10n);
    expect(q.filled).toBe(shares(15));
    expect([q.partial, q.afterTicks, q.worstTicks]).toEqual([true, null, 38]);
  });

  test('when the book is empty, then nothing fills and the quote is partial', () => {
    const q = quoteClob({ side: 'BUY', outcome: 1, amount: E18, feeRateBps: 0, bids: [], asks: [] });
    expect([q.shares, q.partial, q.beforeTicks, q.worstTicks]).toEqual([0n, true, null, null]);
  });

  test('when the amount cannot pay one lot at the next level, then the walk stops there without calling it partial', () => {
    const q = quoteClob({ side: 'BUY', outcome: 1, amount: 6n * E18 + 1n, feeRateBps: 0, ...book });
    expect([q.shares, q.partial, q.afterTicks]).toEqual([shares(10), false, 65]);
  });

  test('when slippage widens the worst price, then BUY goes up and SELL down, within 0.01..1.00', () => {
    expect(worstTicksWithin('BUY', 60, 100)).toBe(60);
    expect(worstTicksWithin('BUY', 60, 500)).toBe(63);
    expect(worstTicksWithin('BUY', 99, 5000)).toBe(100);
    expect(worstTicksWithin('SELL', 40, 500)).toBe(38);
    expect(worstTicksWithin('SELL', 1, 5000)).toBe(1);
  });
});
