import { secondaryIndexesUsed } from '../../src/db/index-policy';
import { createOrderModel } from '../../src/orders/models';
import { useTestDatabase } from '../helpers/test-database';
import { ALICE, ONE, insertMarket, place, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('order hash uniqueness on a fresh database', () => {
  const database = useTestDatabase('orders_unique');
  let h: OrderHarness;
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
  });
  afterAll(async () => h.close());

  test('when the very first placements race with one signed order, then it is stored once and a second document for the hash is refused', async () => {
    const market = await insertMarket(database.db());
    h.chain.fund(ALICE.address, 100n * ONE);
    const item = signedItem(ALICE, market, { size: '1' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => place(h, ALICE.address, [item])));
    expect(answers.filter((a) => a.body.results[0].status === 'OPEN')).toHaveLength(1);
    expect(await createOrderModel(database.db()).countDocuments({ order_hash: item.hash })).toBe(1);
    // Orders are written with `_id` = order hash (on MongoDB the order_hash index refuses it too).
    await expect(createOrderModel(database.db()).collection.insertOne({ _id: item.hash as never, order_hash: item.hash })).rejects.toMatchObject({ code: 11000 });
    if (secondaryIndexesUsed(database.db())) {
      const indexes = await database.db().collection('orders').indexes();
      expect(indexes.find((i) => JSON.stringify(i.key) === '{"order_hash":1}')).toMatchObject({ unique: true });
    }
  });
});
