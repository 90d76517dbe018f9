import { secondaryIndexesUsed } from '../../src/db/index-policy';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { createOrderModel } from '../../src/orders/models';
import { useTestDatabase } from '../helpers/test-database';

describe('indexes by store', () => {
  const { db } = useTestDatabase('idx');

  test('when the store is FerretDB 1.x, then only unique indexes are created; on MongoDB, every declared index is', async () => {
    const onFerret = !!(await db().db!.admin().command({ buildInfo: 1 })).ferretdbVersion;
    expect(secondaryIndexesUsed(db())).toBe(!onFerret);
    const orders = createOrderModel(db());
    await orders.init();
    await ensureMatchingIndexes(matchingCollections(db()));
    const indexes = await db().db!.collection('orders').indexes();
    const keys = indexes.map((i) => JSON.stringify(i.key));
    // The constraint stays everywhere: one document per signed order.
    expect(indexes.find((i) => JSON.stringify(i.key) === '{"order_hash":1}')).toMatchObject({ unique: true });
    if (onFerret) {
      expect(indexes.filter((i) => i.name !== '_id_' && !i.unique)).toEqual([]);
    } else {
      expect(keys).toEqual(expect.arrayContaining(['{"wallet":1,"status":1}', '{"market_key":1,"engine_arrival":1}']));
    }
  });
});
