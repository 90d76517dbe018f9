import type { MarketRecord } from '../../src/db/models/market.model';
import { createOrderModel } from '../../src/orders/models';
import { useTestDatabase } from '../helpers/test-database';
import { ALICE, ONE, insertMarket, place, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('post_only and FOK at order entry', () => {
  const database = useTestDatabase('orders_flags');
  let h: OrderHarness;
  let market: MarketRecord;
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
    market = await insertMarket(database.db());
  });
  afterAll(async () => h.close());
  beforeEach(() => h.chain.fund(ALICE.address, 1_000n * ONE));

  test('when post_only is set on LIMIT or GTD, then the order is accepted and stored post-only; on MARKET or FOK it is INVALID_ORDER', async () => {
    const expiration = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const limit = signedItem(ALICE, market, { price: '0.31', after: { post_only: true } });
    const gtd = signedItem(ALICE, market, { price: '0.32', orderType: 'GTD', expiration, after: { post_only: true } });
    const marketOrder = signedItem(ALICE, market, { price: '0.33', orderType: 'MARKET', after: { post_only: true } });
    const fok = signedItem(ALICE, market, { price: '0.34', after: { order_type: 'FOK', post_only: true } });
    const res = await place(h, ALICE.address, [limit, gtd, marketOrder, fok]);
    expect(res.body.results.map((r: { status?: string; error?: { code: string; message: string } }) => r.status ?? r.error?.code)).toEqual(['OPEN', 'OPEN', 'INVALID_ORDER', 'INVALID_ORDER']);
    expect(res.body.results[2].error.message).toBe('post_only applies to LIMIT and GTD orders, not MARKET');
    const stored = await createOrderModel(database.db()).find({ _id: { $in: [limit.hash, gtd.hash] } }).lean();
    expect(stored.map((o) => o.post_only)).toEqual([true, true]);
  });

  test('when an FOK order is placed, then it is accepted with order_type FOK and handed to the matcher', async () => {
    const fok = signedItem(ALICE, market, { price: '0.4', after: { order_type: 'FOK' } });
    const res = await place(h, ALICE.address, [fok]);
    expect(res.body.results[0]).toMatchObject({ order_hash: fok.hash, status: 'OPEN' });
    expect(await createOrderModel(database.db()).findById(fok.hash).lean()).toMatchObject({ order_type: 'FOK', post_only: false });
    expect(h.matcher.submits.at(-1)?.hashes).toEqual([fok.hash]);
  });

  test('when post_only is not a boolean, then 422 VALIDATION_ERROR', async () => {
    const res = await place(h, ALICE.address, [signedItem(ALICE, market, { after: { post_only: 'yes' as never } })]);
    expect([res.status, res.body.code]).toEqual([422, 'VALIDATION_ERROR']);
  });
});
