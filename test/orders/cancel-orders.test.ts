import { decodeFunctionData } from 'viem';
import { exchangeAbi } from '../../src/chain/generated';
import { createOrderModel } from '../../src/orders/models';
import type { MarketRecord } from '../../src/db/models/market.model';
import { useTestDatabase } from '../helpers/test-database';
import { ACCOUNTS, EXCHANGE, ONE, asWallet, call, insertMarket, place, readOnlyKey, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('cancels', () => {
  const database = useTestDatabase('orders_cancel');
  let h: OrderHarness;
  let m1: MarketRecord;
  let m2: MarketRecord;
  const alice = ACCOUNTS[1];
  const bob = ACCOUNTS[2];
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
    m1 = await insertMarket(database.db());
    m2 = await insertMarket(database.db());
    h.chain.fund(alice.address, 10_000n * ONE);
    h.chain.fund(bob.address, 10_000n * ONE);
  });
  afterAll(async () => h.close());

  const orders = () => createOrderModel(database.db());
  const cancel = (wallet: string, body: unknown) => call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: asWallet(wallet), body });
  async function placeOne(wallet = alice, market = m1, opts: Parameters<typeof signedItem>[2] = {}): Promise<string> {
    const item = signedItem(wallet, market, { size: '1', ...opts });
    const res = await place(h, wallet.address, [item]);
    expect(res.body.results[0].status).toBe('OPEN');
    return item.hash;
  }
  const setStatus = (hash: string, status: string) => orders().updateOne({ order_hash: hash }, { $set: { status } });

  test('when cancelling by hashes, then own live orders are cancelled and the rest say why', async () => {
    const live = await placeOne();
    const filled = await placeOne();
    const matched = await placeOne();
    const expired = await placeOne();
    const foreign = await placeOne(bob);
    await setStatus(filled, 'FILLED');
    await setStatus(matched, 'MATCHED');
    await setStatus(expired, 'EXPIRED');
    const unknown = `0x${'12'.repeat(32)}`;
    const res = await cancel(alice.address, { order_hashes: [live, filled, matched, expired, foreign, unknown] });
    expect(res.status).toBe(200);
    expect(res.body.cancelled).toEqual([live]);
    const why = Object.fromEntries(res.body.not_cancelled.map((n: { order_hash: string; error: { code: string } }) => [n.order_hash, n.error.code]));
    expect(why).toEqual({
      [filled]: 'ORDER_ALREADY_FILLED',
      [matched]: 'ORDER_ALREADY_FILLED',
      [expired]: 'ORDER_NOT_OPEN',
      [foreign]: 'ORDER_NOT_FOUND',
      [unknown]: 'ORDER_NOT_FOUND',
    });
    expect((await orders().findOne({ order_hash: foreign }).lean())?.status).toBe('OPEN');
    expect(h.matcher.cancels.at(-1)).toEqual({ market: { chain_id: 56, condition_id: m1.condition_id }, wallet: alice.address.toLowerCase(), hashes: [live] });
  });

  test('when cancelling by filter, then only matching live orders of the wallet go to their matcher', async () => {
    const buyYes = await placeOne(alice, m1, { side: 'BUY', outcome: 1 });
    const buyNo = await placeOne(alice, m1, { side: 'BUY', outcome: 0, price: '0.3' });
    const otherMarket = await placeOne(alice, m2);
    const bobs = await placeOne(bob, m1);
    const res = await cancel(alice.address, { filter: { condition_id: m1.condition_id, chain_id: 56, side: 'BUY', outcome: 1 } });
    expect(res.body.cancelled).toContain(buyYes);
    expect(res.body.cancelled).not.toContain(buyNo);
    expect(res.body.cancelled).not.toContain(otherMarket);
    expect(res.body.cancelled).not.toContain(bobs);
    expect(res.body.not_cancelled).toEqual([]);
  });

  test('when cancelling all, then every live order of the wallet is cancelled through one matcher call per market', async () => {
    await placeOne(alice, m1);
    await placeOne(alice, m2);
    const before = h.matcher.cancels.length;
    const res = await cancel(alice.address, { all: true });
    expect(res.status).toBe(200);
    const calls = h.matcher.cancels.slice(before);
    expect(calls.map((c) => c.market.condition_id).sort()).toEqual([m1.condition_id, m2.condition_id].sort());
    expect(await orders().countDocuments({ wallet: alice.address.toLowerCase(), status: { $in: ['OPEN', 'PARTIALLY_FILLED'] } })).toBe(0);
    expect(res.body.cancelled.length).toBe(calls.reduce((n, c) => n + c.hashes.length, 0));
    expect(await orders().countDocuments({ wallet: bob.address.toLowerCase(), status: 'OPEN' })).toBeGreaterThan(0);
  });

  test('when cancelling all or by filter, then the answer says has_more: false once nothing live is left', async () => {
    await placeOne(alice, m1);
    const res = await cancel(alice.address, { all: true });
    expect(res.body).toMatchObject({ has_more: false });
    expect((await cancel(alice.address, { filter: { chain_id: 56 } })).body).toEqual({ cancelled: [], not_cancelled: [], has_more: false });
  });

  test('when one market\'s matcher fails, then the other markets\' cancels are answered and its orders say SERVICE_DEGRADED; when every one fails, then 503', async () => {
    const inM1 = await placeOne(alice, m1);
    const inM2 = await placeOne(alice, m2);
    h.matcher.failCancelIn.add(m2.condition_id);
    try {
      const res = await cancel(alice.address, { order_hashes: [inM1, inM2] });
      expect(res.status).toBe(200);
      expect(res.body.cancelled).toEqual([inM1]);
      expect(res.body.not_cancelled).toEqual([{ order_hash: inM2, error: { code: 'SERVICE_DEGRADED', message: expect.stringMatching(/not confirmed/) } }]);
      expect((await orders().findOne({ order_hash: inM2 }).lean())?.status).toBe('OPEN');

      const down = await cancel(alice.address, { order_hashes: [inM2] });
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ code: 'SERVICE_DEGRADED', message: expect.stringMatching(/Retry/) });
    } finally {
      h.matcher.failCancelIn.clear();
    }
    // Sent again once the matcher answers: cancelled, and the first market's answers again ORDER_NOT_OPEN.
    const again = await cancel(alice.address, { order_hashes: [inM1, inM2] });
    expect(again.body.cancelled).toEqual([inM2]);
    expect(again.body.not_cancelled).toEqual([{ order_hash: inM1, error: expect.objectContaining({ code: 'ORDER_NOT_OPEN' }) }]);
  });

  test('when the cancel body is not exactly one of the three shapes, or lists more than 100 hashes, then 422 VALIDATION_ERROR', async () => {
    const hash = `0x${'34'.repeat(32)}`;
    for (const body of [{}, { all: false }, { all: true, order_hashes: [hash] }, { order_hashes: [] }, { order_hashes: Array(101).fill(hash) }, { order_hashes: ['0x12'] }, { filter: { side: 'HOLD' } }]) {
      const res = await cancel(alice.address, body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const hundred = await cancel(alice.address, { order_hashes: Array.from({ length: 100 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`) });
    expect(hundred.status).toBe(200);
    expect(hundred.body.not_cancelled).toHaveLength(100);
  });

  test('when a read-only key cancels, then 403 FORBIDDEN', async () => {
    const res = await call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: readOnlyKey(alice.address), body: { all: true } });
    expect(res.status).toBe(403);
  });

  describe('cancel-onchain', () => {
    const onchain = (wallet: string, hash: string) => call(`${h.url}/v1/orders/${hash}/cancel-onchain`, { method: 'POST', headers: asWallet(wallet) });

    test('when the order is live, then the answer is cancelOrder calldata of the stored signed order to the exchange', async () => {
      const item = signedItem(alice, m1, { size: '3', price: '0.25', side: 'BUY' });
      await place(h, alice.address, [item]);
      const res = await onchain(alice.address, item.hash);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ to: EXCHANGE, chain_id: 56 });
      const decoded = decodeFunctionData({ abi: exchangeAbi, data: res.body.data });
      expect(decoded.functionName).toBe('cancelOrder');
      const [order] = decoded.args as unknown as [Record<string, unknown>];
      expect(order).toMatchObject({
        salt: BigInt(item.salt),
        maker: alice.address,
        tokenId: BigInt(item.token_id),
        makerAmount: BigInt(item.maker_amount),
        takerAmount: BigInt(item.taker_amount),
        side: 0,
        signature: item.signature.toLowerCase(),
      });
    });

    test('when the order is terminal, filled, foreign or unknown, then ORDER_NOT_OPEN, ORDER_ALREADY_FILLED, ORDER_NOT_FOUND', async () => {
      const cancelled = await placeOne();
      const filled = await placeOne();
      const foreign = await placeOne(bob);
      await setStatus(cancelled, 'CANCELLED');
      await setStatus(filled, 'FILLED');
      const a = await onchain(alice.address, cancelled);
      expect([a.status, a.body.code]).toEqual([422, 'ORDER_NOT_OPEN']);
      const b = await onchain(alice.address, filled);
      expect([b.status, b.body.code]).toEqual([422, 'ORDER_ALREADY_FILLED']);
      const c = await onchain(alice.address, foreign);
      expect([c.status, c.body.code]).toEqual([404, 'ORDER_NOT_FOUND']);
      const d = await onchain(alice.address, `0x${'56'.repeat(32)}`);
      expect([d.status, d.body.code]).toEqual([404, 'ORDER_NOT_FOUND']);
      const e = await onchain(alice.address, 'not-a-hash');
      expect([e.status, e.body.code]).toEqual([422, 'VALIDATION_ERROR']);
    });
  });
});

describe('cancels in pages', () => {
  const database = useTestDatabase('orders_cancel_pages');
  let h: OrderHarness;
  let m1: MarketRecord;
  let m2: MarketRecord;
  const carol = ACCOUNTS[3];
  beforeAll(async () => {
    h = await startOrderHarness(database.db, { cancelPage: 2 });
    m1 = await insertMarket(database.db());
    m2 = await insertMarket(database.db());
    h.chain.fund(carol.address, 10_000n * ONE);
  });
  afterAll(async () => h.close());

  test('when a wallet has more live orders than one request ends, then each cancel-all ends one page and says has_more until none is left', async () => {
    const items = [m1, m1, m2, m1, m2].map((m, i) => signedItem(carol, m, { size: '1', salt: BigInt(1000 + i) }));
    const placed = await place(h, carol.address, items);
    expect(placed.body.results.map((r: { status: string }) => r.status)).toEqual(['OPEN', 'OPEN', 'OPEN', 'OPEN', 'OPEN']);
    const pages: { cancelled: string[]; has_more: boolean }[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: asWallet(carol.address), body: { all: true } });
      expect(res.status).toBe(200);
      pages.push(res.body);
      if (!res.body.has_more) break;
    }
    expect(pages.map((p) => [p.cancelled.length, p.has_more])).toEqual([[2, true], [2, true], [1, false]]);
    expect(pages.flatMap((p) => p.cancelled).sort()).toEqual(items.map((i) => i.hash).sort());
    expect(Math.max(...h.matcher.cancels.map((c) => c.hashes.length))).toBeLessThanOrEqual(2);
    expect(await createOrderModel(database.db()).countDocuments({ wallet: carol.address.toLowerCase(), status: 'OPEN' })).toBe(0);
  });
});
