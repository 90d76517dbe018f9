import { createSettlementActivities } from '../../activities/settlement.activities';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { fillIdOf, marketKeyOf } from '../../src/matching/market-ids';
import { UNCONFIGURED_CHAIN } from '../../src/settlement/settlement-port';
import { useTestDatabase } from '../helpers/test-database';
import { logger, newMarket, pendingFill, RecordingPublisher } from './market-harness';

describe('public trade rows and prints, written as trades settle', () => {
  const { db } = useTestDatabase('prints');

  async function setup() {
    const collections = matchingCollections(db());
    await ensureMatchingIndexes(collections);
    const publisher = new RecordingPublisher();
    const activities = createSettlementActivities({ collections, publisher, logger, chain: UNCONFIGURED_CHAIN });
    const market = newMarket();
    let n = 0;
    /** The two fills of a new trade, as a market step writes them (`legacy`: before taker fills carried the trade price). */
    const trade = async (legacy = false) => {
      const tradeId = `${marketKeyOf(market)}:${++n}`;
      const at = new Date(Date.UTC(2026, 10, 23, 0, 0, n));
      const fill = (role: 'maker' | 'taker') => pendingFill(market, tradeId, role, { at, orderHash: `0x${role}${n}`, tradePrice: !legacy });
      await collections.fills.insertMany([fill('maker'), fill('taker')]);
      if (legacy) {
        await collections.trades.insertOne({ _id: tradeId, trade_id: tradeId, chain_id: market.chain_id, condition_id: market.condition_id, price: '0.6', size: (2n * 10n ** 18n).toString(), settlement_status: 'PENDING', created_at: at });
      }
      return tradeId;
    };
    const prints = () => publisher.events.filter((e) => e.channel === 'trades').map((e) => (e.payload as { trade_id: string }).trade_id);
    return { collections, activities, trade, prints };
  }

  test('when a trade confirms, then its row is written CONFIRMED and printed once, even when the write is retried', async () => {
    const { collections, activities, trade, prints } = await setup();
    const id = await trade();
    expect(await collections.trades.countDocuments({ _id: id })).toBe(0); // nothing public before it settles
    for (let attempt = 0; attempt < 2; attempt++) await activities.markFillsOf({ groups: [{ tradeIds: [id], txHash: '0xaa' }], status: 'CONFIRMED' });
    expect(await collections.trades.findOne({ _id: id })).toMatchObject({ price: '0.6', settlement_status: 'CONFIRMED' });
    expect(prints()).toEqual([id]);
  });

  test('when a trade fails, then its row says FAILED and nothing is printed', async () => {
    const { collections, activities, trade, prints } = await setup();
    const id = await trade();
    await activities.markFillsOf({ groups: [{ tradeIds: [id], txHash: '' }], status: 'FAILED' });
    expect(await collections.trades.findOne({ _id: id })).toMatchObject({ settlement_status: 'FAILED' });
    expect(prints()).toEqual([]);
  });

  test('when a trade matched before rows waited for settlement confirms, then its PENDING row takes the status and is printed once', async () => {
    const { collections, activities, trade, prints } = await setup();
    const id = await trade(true);
    const fresh = await trade();
    for (let attempt = 0; attempt < 2; attempt++) await activities.markFillsOf({ groups: [{ tradeIds: [id, fresh], txHash: '0xbb' }], status: 'CONFIRMED' });
    expect(await collections.trades.find({ _id: { $in: [id, fresh] } }).sort({ _id: 1 }).toArray()).toEqual([
      expect.objectContaining({ _id: id, settlement_status: 'CONFIRMED' }),
      expect.objectContaining({ _id: fresh, settlement_status: 'CONFIRMED' }),
    ]);
    expect(prints().sort()).toEqual([id, fresh].sort());
  });
});
