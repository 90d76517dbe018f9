import { foldTrades, hasApplied, withApplied, type CandleRow, type CandleTrade } from '../../src/candles/candle-math';

const trade = (n: number, atMs: number, yesTicks: number): CandleTrade => ({ tradeId: `56-0xc:${n}`, chainId: 56, conditionId: '0xc', yesTicks, sizeUnits: 1n, atMs });

describe('a candle\'s applied trade numbers', () => {
  test('when numbers arrive in any order, then the ranges stay sorted, disjoint and merged, and membership is exact', () => {
    const numbers = [5, 3, 4, 10, 1, 2, 8, 9, 7, 20];
    let ranges: [number, number][] = [];
    for (const n of numbers) ranges = withApplied(ranges, n);
    expect(ranges).toEqual([[1, 5], [7, 10], [20, 20]]);
    for (let n = 0; n <= 21; n++) expect([n, hasApplied(ranges, n)]).toEqual([n, numbers.includes(n)]);
  });

  test('when a row written with the older `recent` id list is folded again, then its trades still count once and the row is rewritten with ranges', () => {
    const legacy = {
      _id: '56|0xc|1m|0', chain_id: 56, condition_id: '0xc', interval: '1m', t: 0, open: 40, high: 40, low: 40, close: 40, volume_units: '1',
      open_key: 'k', close_key: 'k', recent: ['56-0xc:7'], version: 3,
    } as unknown as CandleRow;
    expect(foldTrades(legacy, [trade(7, 1_000, 40)], '1m')).toBeNull();
    const next = foldTrades(legacy, [trade(7, 1_000, 40), trade(8, 2_000, 60)], '1m');
    expect(next).toMatchObject({ volume_units: '2', high: 60, applied: [7, 8], version: 4 });
    expect(next).not.toHaveProperty('recent');
  });
});
