import { createMarketActivities } from '../../activities/market.activities';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { fillIdOf, marketKeyOf } from '../../src/matching/market-ids';
import type { BatchWrite, TradeLegWrite, TradeWrite } from '../../src/matching/payloads';
import { useTestDatabase } from '../helpers/test-database';
import { errorRecordingLogger, newMarket, RecordingPublisher } from './market-harness';

const SHARE = 10n ** 18n;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const leg = (order: number, side: 'BUY' | 'SELL'): TradeLegWrite => ({
  orderHash: hash(order), maker: `0x${order.toString(16).padStart(40, '0')}`, side, outcome: 1, price: 60, size: SHARE.toString(), collateral: (6n * SHARE / 10n).toString(), fee: '0',
});

describe('a market step written twice with different decisions', () => {
  const { db } = useTestDatabase('diverge');

  test('when a retried step decides another trade under a trade id already written, then the stored fills stay and the divergence is logged with both versions', async () => {
    const collections = matchingCollections(db());
    await ensureMatchingIndexes(collections);
    const { logger, errors } = errorRecordingLogger();
    const activities = createMarketActivities({ collections, publisher: new RecordingPublisher(), logger });
    const market = newMarket();
    const tradeId = `${marketKeyOf(market)}:1`;
    const step = (trade: TradeWrite): BatchWrite => ({
      market, decimals: 18, at: Date.now(), orders: [], direct: [], trades: [trade], book: [], ticker: null, counters: { seq: 3, bookSeq: 0, tradeSeq: 1, arrival: 2 },
    });
    const first: TradeWrite = { tradeId, seq: 2, kind: 'TRANSFER', yesPrice: 60, size: SHARE.toString(), taker: leg(1, 'BUY'), maker: leg(2, 'SELL') };

    await activities.applyMatchBatch(step(first));
    // The same decision again (an ordinary retry): nothing to say.
    await activities.applyMatchBatch(step(first));
    expect(errors).toEqual([]);

    // Another maker under the same trade id (the lost attempt's clock expired maker 2, say).
    await activities.applyMatchBatch(step({ ...first, maker: leg(3, 'SELL') }));
    const maker = await collections.fills.findOne({ _id: fillIdOf(tradeId, 'maker') });
    expect(maker?.order_hash).toBe(hash(2));
    expect(errors).toHaveLength(1);
    const [details, message] = errors[0] as [{ fills: { id: string; stored: Record<string, string>; decided: Record<string, string> }[] }, string];
    expect(message).toMatch(/diverged/);
    const byId = new Map(details.fills.map((f) => [f.id, f]));
    expect([...byId.keys()].sort()).toEqual([fillIdOf(tradeId, 'maker'), fillIdOf(tradeId, 'taker')].sort());
    expect(byId.get(fillIdOf(tradeId, 'maker'))).toMatchObject({ stored: { order_hash: hash(2) }, decided: { order_hash: hash(3) } });
    expect(byId.get(fillIdOf(tradeId, 'taker'))).toMatchObject({ stored: { counter_order_hash: hash(2) }, decided: { counter_order_hash: hash(3) } });
  });

  test('when a retried step gives its trades another settlement batch than the lost attempt wrote, then the fills still PENDING name the retry\'s batch (the one whose child will settle them), and fills already under way keep theirs', async () => {
    const collections = matchingCollections(db());
    const activities = createMarketActivities({ collections, publisher: new RecordingPublisher(), logger: errorRecordingLogger().logger });
    const market = newMarket();
    const key = marketKeyOf(market);
    const trade = (n: number): TradeWrite => ({ tradeId: `${key}:${n}`, seq: n, kind: 'TRANSFER', yesPrice: 60, size: SHARE.toString(), taker: leg(10 + n, 'BUY'), maker: leg(20 + n, 'SELL') });
    const step = (trades: TradeWrite[], settlementBatch: string): BatchWrite => ({
      market, decimals: 18, at: Date.now(), orders: [], direct: [], trades, book: [], ticker: null, counters: { seq: 9, bookSeq: 0, tradeSeq: 2, arrival: 4 }, settlementBatch,
    });
    const batchOf = async (tradeId: string) => (await collections.fills.find({ trade_id: tradeId }).toArray()).map((f) => f.settlement_batch);

    // The lost attempt joined a waiting batch named after an earlier trade.
    await activities.applyMatchBatch(step([trade(1), trade(2)], `${key}:0`));
    // Settlement of trade 2 got under way meanwhile (a found batch, say): its fills are not PENDING.
    await collections.fills.updateMany({ trade_id: `${key}:2` }, { $set: { settlement_status: 'MINED' } });
    // The retry started that batch before the step (a child finished first): a new batch, named after trade 1.
    await activities.applyMatchBatch(step([trade(1), trade(2)], `${key}:1`));
    expect(await batchOf(`${key}:1`)).toEqual([`${key}:1`, `${key}:1`]);
    expect(await batchOf(`${key}:2`)).toEqual([`${key}:0`, `${key}:0`]);
  });
});
