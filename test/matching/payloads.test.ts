import { placeableOfRow, placeableRowOf, placeablesOf, type PlaceableOrder } from '../../src/matching/payloads';
import { settlementBatchIdOf, settlementGroupsOf } from '../../src/matching/market-ids';

const order = (taker: string): PlaceableOrder => ({
  hash: `0x${'ab'.repeat(32)}`, maker: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', taker, side: 'SELL', outcome: 0, orderType: 'GTD', price: 37,
  size: '1000000000000000001', makerAmount: '1000000000000000001', takerAmount: '370000000000000001', expiration: 1_795_391_722, feeRateBps: 150,
});

describe('history payloads of the market workflow', () => {
  test('when an order is loaded as a row, then it reads back field for field, for an open and a restricted taker alike', () => {
    for (const taker of ['0x0000000000000000000000000000000000000000', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc']) {
      const o = order(taker);
      const row = placeableRowOf(o);
      expect(placeableOfRow(row)).toEqual(o);
      // Rows are what the history records: smaller than the keyed object.
      expect(JSON.stringify(row).length).toBeLessThan(JSON.stringify(o).length * 0.8);
    }
    expect(placeableRowOf(order('0x0000000000000000000000000000000000000000'))[2]).toBe('');
  });

  test('when a load was recorded before rows existed, then its keyed orders are still read', () => {
    const o = order('0x0000000000000000000000000000000000000000');
    expect(placeablesOf({ orders: [o], skipped: [] })).toEqual([o]);
    expect(placeablesOf({ rows: [placeableRowOf(o)], skipped: ['0x01'] })).toEqual([o]);
  });

  test('when a settlement input leaves out group batch ids, then each group is named after its first trade, as the market workflow named it', () => {
    const market = { chain_id: 56, condition_id: `0x${'cd'.repeat(32)}` };
    const key = `56-0x${'cd'.repeat(32)}`;
    const groups = settlementGroupsOf(market, [{ tradeIds: [`${key}:7`, `${key}:8`] }, { batchId: 'kept', tradeIds: [`${key}:9`] }]);
    expect(groups).toEqual([{ batchId: settlementBatchIdOf(key, `${key}:7`), tradeIds: [`${key}:7`, `${key}:8`] }, { batchId: 'kept', tradeIds: [`${key}:9`] }]);
  });
});
