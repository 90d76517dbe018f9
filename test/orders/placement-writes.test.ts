import type { OrderRecord } from '../../src/ports/order-record';
import { HANDOFF_MARKERS } from '../../src/matching/handoff-markers';
import { useTestDatabase } from '../helpers/test-database';
import { collateralAsset } from '../../src/orders/reservations';
import { ACCOUNTS, COLLATERAL, ONE, insertMarket, place, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('placement writes shared by concurrent requests', () => {
  const database = useTestDatabase('orders_group_commit');
  let h: OrderHarness;
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
  });
  afterAll(async () => h.close());
  afterEach(() => jest.restoreAllMocks());

  test('when single-order requests arrive while an insert is in flight, then their orders go out in one insert after it, each answered and persisted once', async () => {
    const market = await insertMarket(database.db());
    const wallets = ACCOUNTS.slice(1, 7);
    for (const w of wallets) h.chain.fund(w.address, 100n * ONE);
    const orders = h.orders.context.models.orders;
    const original = orders.insertMany.bind(orders);
    const sizes: number[] = [];
    let slowFirst = true;
    jest.spyOn(orders, 'insertMany').mockImplementation(((docs: unknown[], options: unknown) => {
      sizes.push(docs.length);
      if (slowFirst) {
        slowFirst = false;
        // The first insert is slow: every other request arrives while it is in flight.
        return new Promise((resolve) => setTimeout(resolve, 300)).then(() => original(docs as never, options as never));
      }
      return original(docs as never, options as never);
    }) as never);
    const items = wallets.map((w) => signedItem(w, market, { price: '0.5', size: '1' }));
    const first = place(h, wallets[0].address, [items[0]]);
    await new Promise((r) => setTimeout(r, 100));
    const rest = wallets.slice(1).map((w, i) => place(h, w.address, [items[i + 1]]));
    const answers = await Promise.all([first, ...rest]);
    expect(answers.map((a) => a.body.results[0].status)).toEqual(Array(6).fill('OPEN'));
    expect(sizes).toEqual([1, 5]);
    const stored = await database.db().collection('orders').countDocuments({ _id: { $in: items.map((i) => i.hash) } as never });
    expect(stored).toBe(6);
  });

  test('when two requests place the same signed order at once, then exactly one places it and the other is told it is a duplicate', async () => {
    const market = await insertMarket(database.db());
    const [alice] = ACCOUNTS.slice(1, 2);
    h.chain.fund(alice.address, 100n * ONE);
    const item = signedItem(alice, market, { price: '0.5', size: '1' });
    const results = await Promise.all([place(h, alice.address, [item]), place(h, alice.address, [item])]);
    const outcomes = results.map((r) => r.body.results[0].status ?? r.body.results[0].error.code).sort();
    expect(outcomes).toEqual(['INVALID_ORDER', 'OPEN']);
  });

  test('when a refused request takes back the marker of an order another request placed meanwhile, then that order keeps a marker; an order never stored loses it', async () => {
    const market = await insertMarket(database.db());
    const [alice] = ACCOUNTS.slice(1, 2);
    h.chain.fund(alice.address, 100n * ONE);
    const item = signedItem(alice, market, { price: '0.5', size: '1' });
    expect((await place(h, alice.address, [item])).body.results[0].status).toBe('OPEN');
    const markers = database.db().collection<{ _id: string }>(HANDOFF_MARKERS);
    const stored = (await h.orders.context.models.orders.findById(item.hash).lean()) as unknown as OrderRecord;
    const neverStored: OrderRecord = { ...stored, order_hash: `0x${'ef'.repeat(32)}` };
    await h.orders.context.placementWrites.mark([neverStored]);
    expect(await markers.countDocuments({ _id: { $in: [item.hash, neverStored.order_hash] } })).toBe(2);

    // The request that was refused both (balance) takes their markers back.
    await h.orders.context.placementWrites.unmark([stored, neverStored]);

    expect(await markers.countDocuments({ _id: item.hash })).toBe(1);
    expect(await markers.countDocuments({ _id: neverStored.order_hash })).toBe(0);
  });

  test('when one order of a request fails to be stored while its sibling is written, then the sibling is answered placed and the failed one SERVICE_DEGRADED, with its hold and marker taken back', async () => {
    const market = await insertMarket(database.db());
    const wallet = ACCOUNTS[9];
    h.chain.fund(wallet.address, 100n * ONE);
    const [kept, lost] = [signedItem(wallet, market, { price: '0.5', size: '2' }), signedItem(wallet, market, { price: '0.5', size: '4' })];
    const orders = h.orders.context.models.orders;
    const original = orders.insertMany.bind(orders);
    // The store writes every document but the lost order's, and reports that one alone (as a
    // driver's unordered insert does for a non-duplicate error of one document).
    jest.spyOn(orders, 'insertMany').mockImplementationOnce((async (docs: { _id: string }[], options: unknown) => {
      const index = docs.findIndex((d) => d._id === lost.hash);
      await original(docs.filter((_, i) => i !== index) as never, options as never);
      throw Object.assign(new Error('write failed'), { writeErrors: [{ index, code: 2, errmsg: 'document failed validation' }] });
    }) as never);

    const res = await place(h, wallet.address, [kept, lost]);

    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ status: 'OPEN', order_hash: kept.hash });
    expect(res.body.results[1].error).toMatchObject({ code: 'SERVICE_DEGRADED' });
    expect(await orders.countDocuments({ _id: { $in: [kept.hash, lost.hash] } })).toBe(1);
    expect(await h.orders.context.reservationStore.held(wallet.address, 56, collateralAsset(COLLATERAL))).toBe(1n * ONE); // 2 at 0.5: kept's only
    const markers = database.db().collection<{ _id: string }>(HANDOFF_MARKERS);
    expect(await markers.countDocuments({ _id: lost.hash })).toBe(0);
    // And the lost order can be placed again.
    expect((await place(h, wallet.address, [lost])).body.results[0].status).toBe('OPEN');
  });
});
