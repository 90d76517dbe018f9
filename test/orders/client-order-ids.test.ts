import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { MarketRecord } from '../../src/db/models/market.model';
import { presentOrder as presentUserOrder } from '../../src/presenters/present-order';
import { CLAIM_GRACE_MS, claimId, CLIENT_ORDER_IDS } from '../../src/orders/client-order-ids';
import { useTestDatabase } from '../helpers/test-database';
import { ONE, asWallet, call, insertMarket, place, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('client_order_id', () => {
  const database = useTestDatabase('orders_coid');
  let h: OrderHarness;
  let other: OrderHarness;
  let market: MarketRecord;
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
    // A second app on the same database: another API process.
    other = await startOrderHarness(database.db);
    market = await insertMarket(database.db());
  });
  afterAll(async () => {
    await h.close();
    await other.close();
  });

  /** A funded wallet no other test touches. */
  const freshWallet = (collateral = 1_000n * ONE) => {
    const key = generatePrivateKey();
    const wallet = { address: privateKeyToAccount(key).address, privateKey: key };
    h.chain.fund(wallet.address, collateral);
    other.chain.fund(wallet.address, collateral);
    return wallet;
  };
  const withId = (wallet: ReturnType<typeof freshWallet>, id: string, options: Parameters<typeof signedItem>[2] = {}) =>
    signedItem(wallet, market, { ...options, after: { client_order_id: id, ...options.after } });

  test('when an order carries a client_order_id, then it is stored, echoed in the Order record and the user event, and filterable', async () => {
    const w = freshWallet();
    const item = withId(w, 'mm-1:quote.A_7');
    const plain = signedItem(w, market, { price: '0.3' });
    const res = await place(h, w.address, [item, plain]);
    expect(res.body.results[0]).toMatchObject({ order_hash: item.hash, client_order_id: 'mm-1:quote.A_7', status: 'OPEN' });
    expect(res.body.results[1]).toMatchObject({ order_hash: plain.hash, client_order_id: null });

    const listed = await call(`${h.url}/v1/orders?client_order_id=mm-1:quote.A_7`, { headers: asWallet(w.address) });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((o: { order_hash: string }) => o.order_hash)).toEqual([item.hash]);
    expect(listed.body.data[0].client_order_id).toBe('mm-1:quote.A_7');
    const one = await call(`${h.url}/v1/orders/${plain.hash}`, { headers: asWallet(w.address) });
    expect(one.body.client_order_id).toBeNull();

    const stored = await database.db().collection('orders').findOne({ _id: item.hash as never });
    expect(presentUserOrder(stored as never)).toMatchObject({ order_hash: item.hash, client_order_id: 'mm-1:quote.A_7' });
  });

  test('when the client_order_id breaks its pattern, then 422 VALIDATION_ERROR', async () => {
    const w = freshWallet();
    for (const bad of ['', 'x'.repeat(65), 'has space', 'semi;colon', 'ünï']) {
      const res = await place(h, w.address, [withId(w, bad)]);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await place(h, w.address, [withId(w, 'x'.repeat(64))])).body.results[0].status).toBe('OPEN');
  });

  test('when a live order holds the id, then another order with it is INVALID_ORDER naming the holder; once it ends, the id is free', async () => {
    const w = freshWallet();
    const first = withId(w, 'q1', { price: '0.4' });
    expect((await place(h, w.address, [first])).body.results[0].status).toBe('OPEN');
    const second = withId(w, 'q1', { price: '0.41' });
    const refused = await place(h, w.address, [second]);
    expect(refused.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', details: { client_order_id: 'q1', order_hash: first.hash } });

    // Another wallet may use the same id.
    const v = freshWallet();
    expect((await place(h, v.address, [withId(v, 'q1')])).body.results[0].status).toBe('OPEN');

    const cancel = await call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: asWallet(w.address), body: { order_hashes: [first.hash] } });
    expect(cancel.body.cancelled).toEqual([first.hash]);
    const again = await place(h, w.address, [second]);
    expect(again.body.results[0]).toMatchObject({ order_hash: second.hash, status: 'OPEN', client_order_id: 'q1' });
  });

  test('when one batch uses an id twice, then the second is INVALID_ORDER and the first is placed', async () => {
    const w = freshWallet();
    const res = await place(h, w.address, [withId(w, 'dup', { price: '0.2' }), withId(w, 'dup', { price: '0.21' })]);
    expect(res.body.results[0].status).toBe('OPEN');
    expect(res.body.results[1].error.code).toBe('INVALID_ORDER');
  });

  test('when an order with an id is refused for balance, then its claim is given back and the id is usable at once', async () => {
    const w = freshWallet(2n * ONE);
    const short = await place(h, w.address, [withId(w, 'retry-me', { price: '0.5', size: '10' })]);
    expect(short.body.results[0].error.code).toBe('INSUFFICIENT_BALANCE');
    const ok = await place(h, w.address, [withId(w, 'retry-me', { price: '0.1', size: '10' })]);
    expect(ok.body.results[0]).toMatchObject({ status: 'OPEN', client_order_id: 'retry-me' });
  });

  test('when the same signed order with an id is placed again, then the repeat is the usual duplicate and the original keeps its id', async () => {
    const w = freshWallet();
    const item = withId(w, 'same');
    expect((await place(h, w.address, [item])).body.results[0].status).toBe('OPEN');
    const repeat = await place(h, w.address, [item]);
    expect(repeat.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', message: 'Duplicate of an order already placed' });
    const next = await place(h, w.address, [withId(w, 'same', { price: '0.3' })]);
    expect(next.body.results[0].error.details).toMatchObject({ order_hash: item.hash });
  });

  test('when twelve requests on two API processes race with one id, then exactly one order is accepted', async () => {
    const w = freshWallet();
    const items = Array.from({ length: 12 }, (_, i) => withId(w, 'race', { price: `0.${10 + i}` }));
    const answers = await Promise.all(items.map((item, i) => place(i % 2 === 0 ? h : other, w.address, [item])));
    const accepted = answers.filter((a) => a.body.results[0].status === 'OPEN');
    expect(accepted).toHaveLength(1);
    for (const a of answers) if (a !== accepted[0]) expect(a.body.results[0].error.code).toBe('INVALID_ORDER');
    const live = await database.db().collection('orders').countDocuments({ wallet: w.address.toLowerCase(), client_order_id: 'race' });
    expect(live).toBe(1);
  });

  test('when a claim was left by a request that died before its insert, then it binds for the grace period and lapses after it', async () => {
    const w = freshWallet();
    const wallet = w.address.toLowerCase();
    const claims = database.db().collection(CLIENT_ORDER_IDS);
    const orphan = `0x${'ab'.repeat(32)}`;
    await claims.insertOne({ _id: claimId(wallet, 'orphan') as never, order_hash: orphan, created_at: new Date() });
    const early = await place(h, w.address, [withId(w, 'orphan')]);
    expect(early.body.results[0].error.details).toMatchObject({ order_hash: orphan });
    await claims.updateOne({ _id: claimId(wallet, 'orphan') as never }, { $set: { created_at: new Date(Date.now() - CLAIM_GRACE_MS - 1) } });
    const late = await place(h, w.address, [withId(w, 'orphan', { price: '0.3' })]);
    expect(late.body.results[0].status).toBe('OPEN');
  });

  test('when cancelling by client_order_ids, then the live order of each id is cancelled; unknown and ended ones say why', async () => {
    const w = freshWallet();
    const a = withId(w, 'a', { price: '0.2' });
    const b = withId(w, 'b', { price: '0.3' });
    const ended = withId(w, 'ended', { price: '0.4' });
    await place(h, w.address, [a, b, ended]);
    await call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: asWallet(w.address), body: { order_hashes: [ended.hash] } });

    const res = await call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: asWallet(w.address), body: { client_order_ids: ['a', 'ended', 'nope'] } });
    expect(res.status).toBe(200);
    expect(res.body.cancelled).toEqual([a.hash]);
    expect(res.body.not_cancelled).toEqual(expect.arrayContaining([
      { order_hash: null, client_order_id: 'nope', error: { code: 'ORDER_NOT_FOUND', message: 'No order has client_order_id nope' } },
      { order_hash: ended.hash, error: { code: 'ORDER_NOT_OPEN', message: 'Order is CANCELLED' } },
    ]));
    expect(res.body.not_cancelled).toHaveLength(2);
    const still = await call(`${h.url}/v1/orders/${b.hash}`, { headers: asWallet(w.address) });
    expect(still.body.status).toBe('OPEN');

    const bad = await call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: asWallet(w.address), body: { client_order_ids: ['bad id'] } });
    expect(bad.status).toBe(422);
  });
});
