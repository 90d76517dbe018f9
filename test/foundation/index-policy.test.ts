import { secondaryIndexesUsed } from '../../src/db/index-policy';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { createOrderModel } from '../../src/orders/models';
import { useTestDatabase } from '../helpers/test-database';

describe('indexes by store', () => {
  const { db } = useTestDatabase('idx');

  test('when the store is FerretDB 1.x, then only unique indexes that _id does not already enforce are created; on MongoDB, every declared index is', async () => {
    const onFerret = !!(await db().db!.admin().command({ buildInfo: 1 })).ferretdbVersion;
    expect(secondaryIndexesUsed(db())).toBe(!onFerret);
    const orders = createOrderModel(db());
    await orders.init();
    await ensureMatchingIndexes(matchingCollections(db()));
    const indexes = await db().db!.collection('orders').indexes();
    const keys = indexes.map((i) => JSON.stringify(i.key));
    const others = async (name: string) => (await db().db!.collection(name).indexes().catch(() => [])).filter((i) => i.name !== '_id_').map((i) => JSON.stringify(i.key));
    if (onFerret) {
      // Orders, trades and fills are keyed by `_id` alone (order hash, trade id, fill id).
      expect(keys).toEqual(['{"_id":1}']);
      expect(await others('trades')).toEqual([]);
      expect(await others('fills')).toEqual([]);
      // Book levels have no such `_id`: their unique key stays.
      expect(await others('book_levels')).toEqual(['{"chain_id":1,"condition_id":1,"side":1,"ticks":1}']);
    } else {
      expect(indexes.find((i) => JSON.stringify(i.key) === '{"order_hash":1}')).toMatchObject({ unique: true });
      expect(keys).toEqual(expect.arrayContaining(['{"wallet":1,"status":1}', '{"market_key":1,"engine_arrival":1}']));
    }
    // The constraint holds everywhere: one document per signed order.
    const hash = `0x${'ab'.repeat(32)}`;
    await db().db!.collection('orders').insertOne({ _id: hash as never, order_hash: hash });
    await expect(db().db!.collection('orders').insertOne({ _id: hash as never, order_hash: hash })).rejects.toMatchObject({ code: 11000 });
  });
});
