import { createMarketModel } from '../../src/db/models/market.model';
import { MarketRecordCache } from '../../src/orders/market-record-cache';
import { useTestDatabase } from '../helpers/test-database';
import { insertMarket, newConditionId } from './harness';

describe('MarketRecordCache (market records at placement)', () => {
  const database = useTestDatabase('market_cache');
  let now = 0;
  // The connection keeps one model per name: each test spies on it afresh.
  afterEach(() => jest.restoreAllMocks());
  const cacheOf = () => {
    const markets = createMarketModel(database.db());
    const find = jest.spyOn(markets, 'find');
    return { cache: new MarketRecordCache(markets, 1_000, () => now), find };
  };

  it('when a market is read again within the TTL, then the kept record answers (no query), and after the TTL the change is seen', async () => {
    const market = await insertMarket(database.db());
    const { cache, find } = cacheOf();
    const key = `56-${market.condition_id}`;
    expect((await cache.find([market])).get(key)?.status).toBe('OPEN');
    await database.db().collection('markets').updateOne({ condition_id: market.condition_id }, { $set: { status: 'PAUSED' } });
    now += 999;
    expect((await cache.find([market])).get(key)?.status).toBe('OPEN');
    expect(find).toHaveBeenCalledTimes(1);
    now += 1;
    expect((await cache.find([market])).get(key)?.status).toBe('PAUSED');
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('when a market is not found, then that is not kept: once it exists it is found', async () => {
    const { cache } = cacheOf();
    const conditionId = newConditionId();
    const ref = { chain_id: 56, condition_id: conditionId.toUpperCase().replace('0X', '0x') };
    expect((await cache.find([ref])).size).toBe(0);
    await insertMarket(database.db(), { condition_id: conditionId });
    expect([...(await cache.find([ref])).keys()]).toEqual([`56-${conditionId}`]);
  });

  it('when several markets are asked for together, then the missing ones are read with one query and each keyed by chain and condition', async () => {
    const [a, b] = [await insertMarket(database.db()), await insertMarket(database.db())];
    const { cache, find } = cacheOf();
    const found = await cache.find([a, b, { chain_id: 56, condition_id: newConditionId() }]);
    expect(find).toHaveBeenCalledTimes(1);
    expect([...found.keys()].sort()).toEqual([`56-${a.condition_id}`, `56-${b.condition_id}`].sort());
  });
});
