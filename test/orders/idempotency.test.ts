import { createOrderModel } from '../../src/orders/models';
import { IDEMPOTENCY_TTL_MS, hashBody } from '../../src/orders/idempotency';
import type { MarketRecord } from '../../src/db/models/market.model';
import { useTestDatabase } from '../helpers/test-database';
import { ACCOUNTS, ONE, insertMarket, place, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('fs-idempotency-key on POST /v1/orders', () => {
  const database = useTestDatabase('orders_idem');
  let h: OrderHarness;
  let market: MarketRecord;
  const wallet = ACCOUNTS[1];
  const other = ACCOUNTS[2];
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
    market = await insertMarket(database.db());
    h.chain.fund(wallet.address, 1_000n * ONE);
    h.chain.fund(other.address, 1_000n * ONE);
  });
  afterAll(async () => h.close());
  afterEach(() => {
    h.clock.now = null;
  });

  const count = (hash: string) => createOrderModel(database.db()).countDocuments({ order_hash: hash });

  test('when the same key and body are sent again, then the cached results are replayed with _idempotent_replayed', async () => {
    const item = signedItem(wallet, market, { size: '1' });
    const rejected = signedItem(other, market);
    const first = await place(h, wallet.address, [item, rejected], { 'fs-idempotency-key': 'k-replay' });
    const submitsBefore = h.matcher.submits.length;
    const second = await place(h, wallet.address, [item, rejected], { 'fs-idempotency-key': 'k-replay' });
    expect(first.body._idempotent_replayed).toBeUndefined();
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, _idempotent_replayed: true });
    expect(h.matcher.submits.length).toBe(submitsBefore);
    expect(await count(item.hash)).toBe(1);
  });

  test('when the same key comes with a different body, then 409 IDEMPOTENCY_CONFLICT', async () => {
    await place(h, wallet.address, [signedItem(wallet, market, { size: '1' })], { 'fs-idempotency-key': 'k-conflict' });
    const res = await place(h, wallet.address, [signedItem(wallet, market, { size: '2' })], { 'fs-idempotency-key': 'k-conflict' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  test('when concurrent requests carry the same key, then the orders are placed once and every answer has the same results', async () => {
    const items = [signedItem(wallet, market, { size: '1' }), signedItem(wallet, market, { size: '2' })];
    const answers = await Promise.all(Array.from({ length: 8 }, () => place(h, wallet.address, items, { 'fs-idempotency-key': 'k-race' })));
    for (const a of answers) expect(a.status).toBe(200);
    expect(answers.filter((a) => a.body._idempotent_replayed === undefined)).toHaveLength(1);
    const results = answers.map((a) => JSON.stringify(a.body.results));
    expect(new Set(results).size).toBe(1);
    expect(answers[0].body.results.map((r: { status: string }) => r.status)).toEqual(['OPEN', 'OPEN']);
    for (const item of items) expect(await count(item.hash)).toBe(1);
  });

  test('when two wallets use the same key, then each gets its own placement', async () => {
    const a = await place(h, wallet.address, [signedItem(wallet, market, { size: '1' })], { 'fs-idempotency-key': 'k-shared' });
    const b = await place(h, other.address, [signedItem(other, market, { size: '1' })], { 'fs-idempotency-key': 'k-shared' });
    expect(a.body._idempotent_replayed).toBeUndefined();
    expect(b.body._idempotent_replayed).toBeUndefined();
    expect(b.body.results[0].status).toBe('OPEN');
  });

  test('when a key is older than its lifetime, then it is forgotten and the same key places again', async () => {
    const start = new Date();
    h.clock.now = start;
    const item = signedItem(wallet, market, { size: '1', expiration: BigInt(Math.floor(start.getTime() / 1000) + 3 * 86_400) });
    await place(h, wallet.address, [item], { 'fs-idempotency-key': 'k-expire' });
    h.clock.now = new Date(start.getTime() + IDEMPOTENCY_TTL_MS + 1_000);
    const later = await place(h, wallet.address, [item], { 'fs-idempotency-key': 'k-expire' });
    expect(later.body._idempotent_replayed).toBeUndefined();
    // Placed again for real: the order itself is a duplicate now.
    expect(later.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', message: 'Duplicate of an order already placed' });
  });

  test('when a claim was left PENDING by a crashed request, then after the stale window the key places again', async () => {
    const item = signedItem(wallet, market, { size: '1' });
    const body = { orders: [(await import('./harness')).wire(item)] };
    const longAgo = new Date(Date.now() - 5 * 60_000);
    await h.orders.context.models.idempotency.create({
      _id: `${wallet.address.toLowerCase()}:k-crashed`, wallet: wallet.address.toLowerCase(), key: 'k-crashed', body_hash: hashBody(body),
      state: 'PENDING', claim_id: 'dead', response: null, created_at: longAgo, updated_at: longAgo,
    });
    const res = await place(h, wallet.address, [item], { 'fs-idempotency-key': 'k-crashed' });
    expect(res.status).toBe(200);
    expect(res.body._idempotent_replayed).toBeUndefined();
    expect(res.body.results[0].status).toBe('OPEN');
    const replay = await place(h, wallet.address, [item], { 'fs-idempotency-key': 'k-crashed' });
    expect(replay.body).toEqual({ ...res.body, _idempotent_replayed: true });
  });

  test('when the first request with a key is still running past the wait bound, then the duplicate gets 409 and nothing is placed twice', async () => {
    const { IdempotencyStore } = await import('../../src/orders/idempotency');
    const store = new IdempotencyStore(h.orders.context.models.idempotency, () => new Date(), 200);
    let release: () => void = () => undefined;
    let runs = 0;
    const slow = () => {
      runs += 1;
      return new Promise<{ results: never[] }>((resolve) => {
        release = () => resolve({ results: [] });
      });
    };
    const first = store.run('0xw', 'k-slow', 'h', slow);
    await new Promise((r) => setTimeout(r, 50));
    await expect(store.run('0xw', 'k-slow', 'h', slow)).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', message: expect.stringMatching(/in progress/) });
    release();
    await expect(first).resolves.toEqual({ response: { results: [] }, replayed: false });
    await expect(store.run('0xw', 'k-slow', 'h', slow)).resolves.toEqual({ response: { results: [] }, replayed: true });
    expect(runs).toBe(1);
  });

  test('when the first request fails, then its claim is freed and a retry with the key runs', async () => {
    const store = h.orders.context.idempotencyStore;
    await expect(store.run('0xw', 'k-fail', 'h', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    await expect(store.run('0xw', 'k-fail', 'h', () => Promise.resolve({ results: ['ok'] }))).resolves.toEqual({ response: { results: ['ok'] }, replayed: false });
  });

  test('when expired keys are swept, then only keys past their lifetime are deleted', async () => {
    const store = h.orders.context.idempotencyStore;
    const model = h.orders.context.models.idempotency;
    const now = new Date();
    await model.create({ _id: 'x:old', wallet: 'x', key: 'old', body_hash: 'h', state: 'DONE', claim_id: 'c', response: { results: [] }, created_at: new Date(now.getTime() - IDEMPOTENCY_TTL_MS - 1), updated_at: now });
    await model.create({ _id: 'x:new', wallet: 'x', key: 'new', body_hash: 'h', state: 'DONE', claim_id: 'c', response: { results: [] }, created_at: now, updated_at: now });
    await store.deleteExpired();
    expect(await model.exists({ _id: 'x:old' })).toBeNull();
    expect(await model.exists({ _id: 'x:new' })).not.toBeNull();
  });

  test('when the key is not printable ASCII or too long, then 422 VALIDATION_ERROR', async () => {
    const res = await place(h, wallet.address, [signedItem(wallet, market)], { 'fs-idempotency-key': 'x'.repeat(256) });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  test('when two bodies differ only in key order, then they hash the same', () => {
    expect(hashBody({ a: 1, b: [{ c: 2, d: 3 }] })).toBe(hashBody({ b: [{ d: 3, c: 2 }], a: 1 }));
    expect(hashBody({ a: 1 })).not.toBe(hashBody({ a: 2 }));
  });
});
