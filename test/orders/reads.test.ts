import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createTickerModel } from '../../src/db/models/ticker.model';
import { createMarketModel, type MarketRecord } from '../../src/db/models/market.model';
import { createOrderModel } from '../../src/orders/models';
import { foldFills } from '../../src/positions/position-fold';
import { createLogger } from '../../src/logging/logger';
import { backfillPositions } from '../../src/positions/backfill-positions';
import { recordFills } from '../helpers/record-fills';
import { useTestDatabase } from '../helpers/test-database';
import { ACCOUNTS, ONE, asWallet, call, insertMarket, place, readOnlyKey, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('private reads', () => {
  const database = useTestDatabase('orders_reads');
  let h: OrderHarness;
  let m1: MarketRecord;
  let m2: MarketRecord;
  const alice = ACCOUNTS[1];
  const bob = ACCOUNTS[2];
  const hashes: string[] = [];
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
    m1 = await insertMarket(database.db());
    m2 = await insertMarket(database.db());
    h.chain.fund(alice.address, 10_000n * ONE);
    h.chain.fund(bob.address, 10_000n * ONE);
    // 5 orders with one identical created_at (tie-breaker territory), then 2 later ones.
    h.clock.now = new Date('2026-01-01T00:00:00.000Z');
    const batch = Array.from({ length: 5 }, (_, i) => signedItem(alice, m1, { size: String(i + 1) }));
    await place(h, alice.address, batch);
    hashes.push(...batch.map((b) => b.hash));
    h.clock.now = new Date('2026-01-01T00:00:01.000Z');
    const later = [signedItem(alice, m2, { size: '1' }), signedItem(alice, m1, { size: '9' })];
    await place(h, alice.address, later);
    hashes.push(...later.map((b) => b.hash));
    h.clock.now = null;
    await place(h, bob.address, [signedItem(bob, m1, { size: '1' })]);
    await createOrderModel(database.db()).updateOne({ order_hash: hashes[0] }, { $set: { status: 'FILLED' } });
    await createOrderModel(database.db()).updateOne({ order_hash: hashes[1] }, { $set: { status: 'EXPIRED' } });
    await createOrderModel(database.db()).updateOne({ order_hash: hashes[2] }, { $set: { status: 'PARTIALLY_FILLED' } });
  });
  afterAll(async () => h.close());

  const get = (path: string, wallet = alice.address) => call(`${h.url}/v1${path}`, { headers: asWallet(wallet) });

  describe('GET /v1/orders', () => {
    test('when listing with no filter, then all own orders come newest first with a stable tie-breaker, paged without gaps or repeats', async () => {
      const seen: string[] = [];
      let cursor = '';
      for (let page = 0; page < 10; page++) {
        const res = await get(`/orders?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((o: { order_hash: string }) => o.order_hash));
        if (!res.body.has_more) {
          expect(res.body.next_cursor).toBe('');
          break;
        }
        cursor = res.body.next_cursor;
      }
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
      expect(seen.slice(0, 2).sort()).toEqual(hashes.slice(5).sort());
      const tied = seen.slice(2);
      expect(tied).toEqual([...tied].sort().reverse());
    });

    test('when filtering by status group (any case), chain and condition, then only those orders come back', async () => {
      const ids = async (q: string) => (await get(`/orders?${q}`)).body.data.map((o: { order_hash: string }) => o.order_hash).sort();
      expect(await ids('status=FILLED')).toEqual([hashes[0]]);
      expect(await ids('status=Cancelled')).toEqual([hashes[1]]);
      expect(await ids('status=open')).toEqual([hashes[2], hashes[3], hashes[4], hashes[5], hashes[6]].sort());
      expect(await ids(`status=open&condition_id=${m2.condition_id}`)).toEqual([hashes[5]]);
      expect(await ids('chain_id=56&status=all')).toHaveLength(7);
    });

    test('when the record is shown, then it has exactly the spec fields', async () => {
      const res = await get(`/orders/${hashes[6]}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(
        ['book_added_at', 'chain_id', 'client_order_id', 'condition_id', 'created_at', 'expiration', 'fee_rate_bps', 'order_hash', 'order_type', 'outcome', 'post_only', 'price', 'remaining_size', 'side', 'size', 'status', 'status_reason', 'token_id', 'updated_at'].sort(),
      );
      expect(res.body).toMatchObject({ order_hash: hashes[6], size: '9', remaining_size: '9', status: 'OPEN', status_reason: null, book_added_at: null, expiration: '0', client_order_id: null, post_only: false });
    });

    test('when the query is bad, then 422; an unknown chain is 404 NOT_FOUND; a malformed cursor is ignored', async () => {
      expect((await get('/orders?limit=0')).status).toBe(422);
      expect((await get('/orders?limit=101')).status).toBe(422);
      expect((await get('/orders?status=pending')).status).toBe(422);
      expect((await get('/orders?bogus=1')).status).toBe(422);
      const unknownChain = await get('/orders?chain_id=1');
      expect([unknownChain.status, unknownChain.body.code]).toEqual([404, 'NOT_FOUND']);
      for (const query of ['cursor=%%%not-base64', `cursor=${'a'.repeat(600)}`, 'cursor=a&cursor=b']) {
        const malformed = await get(`/orders?${query}`);
        expect([query, malformed.status, malformed.body.data?.length]).toEqual([query, 200, 7]);
      }
    });

    test('when another wallet order is asked for by hash, then ORDER_NOT_FOUND exactly like an unknown hash', async () => {
      const bobs = (await get('/orders', bob.address)).body.data[0].order_hash;
      const foreign = await get(`/orders/${bobs}`);
      const unknown = await get(`/orders/0x${'77'.repeat(32)}`);
      expect([foreign.status, foreign.body.code, foreign.body.message]).toEqual([404, 'ORDER_NOT_FOUND', unknown.body.message]);
      expect((await get('/orders/xyz')).status).toBe(422);
    });

    test('when a read-only API key reads, then it is allowed; without credentials 401', async () => {
      expect((await call(`${h.url}/v1/orders`, { headers: readOnlyKey(alice.address) })).status).toBe(200);
      expect((await call(`${h.url}/v1/orders`)).status).toBe(401);
    });
  });

  describe('GET /v1/fills and GET /v1/positions', () => {
    const t0 = new Date('2026-02-01T00:00:00.000Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    beforeAll(async () => {
      const base = { chain_id: 56, condition_id: m1.condition_id, fee: '0', settlement_status: 'PENDING', tx_hash: '' };
      await recordFills(database.db(), [
        { ...base, trade_id: 't1', order_hash: hashes[2], wallet: alice.address.toLowerCase(), role: 'taker', side: 'BUY', outcome: 1, price: '0.4', size: '10', created_at: at(1) },
        { ...base, trade_id: 't1', order_hash: '0xbob1', wallet: bob.address.toLowerCase(), role: 'maker', side: 'SELL', outcome: 1, price: '0.4', size: '10', created_at: at(1) },
        { ...base, trade_id: 't2', order_hash: hashes[3], wallet: alice.address.toLowerCase(), role: 'maker', side: 'BUY', outcome: 1, price: '0.6', size: '10', created_at: at(2) },
        { ...base, trade_id: 't3', order_hash: hashes[4], wallet: alice.address.toLowerCase(), role: 'taker', side: 'SELL', outcome: 1, price: '0.7', size: '5', fee: '0.01', created_at: at(3) },
        { ...base, trade_id: 't4', order_hash: hashes[6], wallet: alice.address.toLowerCase(), role: 'maker', side: 'BUY', outcome: 0, price: '0.3', size: '4', created_at: at(3) },
        { ...base, trade_id: 't5', order_hash: hashes[6], wallet: alice.address.toLowerCase(), role: 'maker', side: 'BUY', outcome: 0, price: '0.3', size: '1', settlement_status: 'FAILED', created_at: at(4) },
        { ...base, condition_id: m2.condition_id, trade_id: 't6', order_hash: hashes[5], wallet: alice.address.toLowerCase(), role: 'taker', side: 'BUY', outcome: 1, price: '0.8', size: '2', created_at: at(5) },
      ]);
      await createTickerModel(database.db()).create({ chain_id: 56, condition_id: m1.condition_id, best_bid: null, best_ask: null, last_price: '0.55', updated_at: at(5) });
      await createMarketModel(database.db()).updateOne({ condition_id: m2.condition_id }, { $set: { status: 'RESOLVED', resolution_outcome: 1 } });
    });

    test('when listing fills, then only own fills come newest first, with spec fields and stable paging', async () => {
      const res = await get('/fills?limit=100');
      expect(res.status).toBe(200);
      expect(res.body.data.map((f: { trade_id: string }) => f.trade_id)).toEqual(['t6', 't5', 't4', 't3', 't2', 't1']);
      expect(Object.keys(res.body.data[0]).sort()).toEqual(
        ['chain_id', 'condition_id', 'created_at', 'fee', 'order_hash', 'outcome', 'price', 'role', 'settlement_status', 'side', 'size', 'trade_id', 'tx_hash'].sort(),
      );
      const paged: string[] = [];
      let cursor = '';
      for (;;) {
        const page = await get(`/fills?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        paged.push(...page.body.data.map((f: { trade_id: string }) => f.trade_id));
        if (!page.body.has_more) break;
        cursor = page.body.next_cursor;
      }
      expect(paged).toEqual(['t6', 't5', 't4', 't3', 't2', 't1']);
      expect((await get('/fills', bob.address)).body.data.map((f: { order_hash: string }) => f.order_hash)).toEqual(['0xbob1']);
    });

    test('when filtering fills by trade_ids (comma-separated or repeated), condition or chain, then only those come back', async () => {
      const ids = async (q: string) => (await get(`/fills?${q}`)).body.data.map((f: { trade_id: string }) => f.trade_id).sort();
      expect(await ids('trade_ids=t1,t3')).toEqual(['t1', 't3']);
      expect(await ids('trade_ids=t1&trade_ids=t6,t2')).toEqual(['t1', 't2', 't6']);
      expect(await ids(`condition_id=${m2.condition_id}&chain_id=56`)).toEqual(['t6']);
      expect(await ids('trade_ids=t1', )).toEqual(['t1']);
      // Repeated more than 20 times (the query parser's array limit), up to the 100 allowed.
      const repeated = (n: number) => Array.from({ length: n }, (_, i) => `trade_ids=${i === 0 ? 't3' : `x${i}`}`).join('&');
      expect(await ids(repeated(25))).toEqual(['t3']);
      expect(await ids(repeated(100))).toEqual(['t3']);
      expect((await get(`/fills?${repeated(101)}`)).status).toBe(422);
      expect((await get('/fills?trade_ids=t1', bob.address)).body.data).toHaveLength(1);
    });

    test('when more than 100 trade ids are asked for, then 422 VALIDATION_ERROR; 100 is fine', async () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => `x${i}`).join(',');
      const over = await get(`/fills?trade_ids=${many(101)}`);
      expect([over.status, over.body.code]).toEqual([422, 'VALIDATION_ERROR']);
      expect((await get(`/fills?trade_ids=${many(100)}`)).status).toBe(200);
      expect((await get('/fills?chain_id=97')).status).toBe(404);
    });

    test('when one matching step fills a wallet\'s BUY in trade 99 and its SELL in trade 100 (same time), then they are folded in trade order: the position is flat', async () => {
      const flat = privateKeyToAccount(generatePrivateKey()).address;
      const market = `56:${m1.condition_id}`;
      const leg = { chain_id: 56, condition_id: m1.condition_id, fee: '0', settlement_status: 'CONFIRMED', tx_hash: '0x1', wallet: flat.toLowerCase(), role: 'maker', outcome: 1, size: '3', created_at: at(9) };
      await recordFills(database.db(), [
        { ...leg, trade_id: `${market}:100`, order_hash: '0xf2', side: 'SELL', price: '0.6' },
        { ...leg, trade_id: `${market}:99`, order_hash: '0xf1', side: 'BUY', price: '0.5' },
      ]);
      const res = await get('/positions', flat);
      expect(res.status).toBe(200);
      expect(res.body.data.map((p: { size: string; realized_pnl: string }) => [p.size, p.realized_pnl])).toEqual([['0', '0.3']]);
    });

    test('when a fill lands on a position between two pages, then paging still lists every position once (newest first by the position\'s first fill)', async () => {
      const trader = privateKeyToAccount(generatePrivateKey()).address;
      const fill = (condition: string, outcome: 0 | 1, trade: string, t: number) => ({
        chain_id: 56, condition_id: condition, fee: '0', settlement_status: 'CONFIRMED', tx_hash: '0x1', wallet: trader.toLowerCase(), role: 'taker',
        side: 'BUY', outcome, price: '0.5', size: '1', trade_id: trade, order_hash: `0x${trade}`, created_at: at(t),
      });
      await recordFills(database.db(), [fill(m1.condition_id, 1, 'p1', 20), fill(m1.condition_id, 0, 'p2', 21), fill(m2.condition_id, 1, 'p3', 22)]);
      const key = (p: { condition_id: string; outcome: number }) => `${p.condition_id === m1.condition_id ? 'm1' : 'm2'}:${p.outcome}`;
      const first = await get('/positions?limit=1', trader);
      expect(first.body.data.map(key)).toEqual(['m2:1']);
      await recordFills(database.db(), [fill(m1.condition_id, 1, 'p4', 30)]); // the oldest position trades again
      const seen = [...first.body.data.map(key)];
      for (let cursor = first.body.next_cursor; cursor;) {
        const page = await get(`/positions?limit=1&cursor=${cursor}`, trader);
        seen.push(...page.body.data.map(key));
        cursor = page.body.next_cursor;
      }
      expect(seen).toEqual(['m2:1', 'm1:0', 'm1:1']);
    });

    test('when fills were recorded before position rows, then the backfill folds them once, and the list reads rows, not fills', async () => {
      const old = privateKeyToAccount(generatePrivateKey()).address;
      const leg = { chain_id: 56, condition_id: m1.condition_id, fee: '0', settlement_status: 'CONFIRMED', tx_hash: '0x1', wallet: old.toLowerCase(), role: 'taker', outcome: 1, created_at: at(40) };
      await database.db().collection('fills').insertMany([
        { ...leg, trade_id: 'b1', order_hash: '0xb1', side: 'BUY', price: '0.5', size: '2' },
        { ...leg, trade_id: 'b2', order_hash: '0xb2', side: 'SELL', price: '0.7', size: '1', created_at: at(41) },
      ]);
      expect((await get('/positions', old)).body.data).toEqual([]);
      await backfillPositions(database.db().db!, createLogger({ level: 'silent' }));
      const expected = [expect.objectContaining({ outcome: 1, size: '1', avg_price: '0.5', realized_pnl: '0.2', current_value: '0.55' })];
      expect((await get('/positions', old)).body.data).toEqual(expected);
      await database.db().collection('fills').deleteMany({ wallet: old.toLowerCase() });
      expect((await get('/positions', old)).body.data).toEqual(expected);
      // Alice's rows were there already: kept as they are.
      expect((await get('/positions')).body.data).toHaveLength(3);
    });

    test('when positions are computed, then size, average, realized pnl and value follow the fills and the market', async () => {
      const res = await get('/positions');
      expect(res.status).toBe(200);
      const byKey = Object.fromEntries(res.body.data.map((p: { condition_id: string; outcome: number }) => [`${p.condition_id}:${p.outcome}`, p]));
      // YES on m1: buy 10@0.4, buy 10@0.6, sell 5@0.7 (fee 0.01): size 15, avg 0.5, realized 5*(0.7-0.5)-0.01, value 15*0.55.
      expect(byKey[`${m1.condition_id}:1`]).toEqual({
        condition_id: m1.condition_id, chain_id: 56, outcome: 1, outcome_label: 'YES', token_id: m1.tokens[1].token_id,
        size: '15', avg_price: '0.5', current_value: '8.25', realized_pnl: '0.99', status: 'active', resolution_outcome: null,
      });
      // NO on m1: the FAILED fill does not count; valued at 1 - 0.55.
      expect(byKey[`${m1.condition_id}:0`]).toMatchObject({ outcome_label: 'NO', size: '4', avg_price: '0.3', current_value: '1.8', realized_pnl: '0', status: 'active' });
      // YES on the resolved m2: pays 1 per share; resolution realizes (1 - 0.8) * 2.
      expect(byKey[`${m2.condition_id}:1`]).toMatchObject({ size: '2', avg_price: '0.8', current_value: '2', realized_pnl: '0.4', status: 'resolved', resolution_outcome: 1 });
      expect(res.body.data[0].condition_id).toBe(m2.condition_id);
    });

    test('when positions are filtered by status, then active and resolved split them', async () => {
      const active = await get('/positions?status=ACTIVE');
      expect(active.body.data.map((p: { status: string }) => p.status)).toEqual(['active', 'active']);
      const resolved = await get('/positions?status=resolved&limit=1');
      expect(resolved.body).toMatchObject({ has_more: false, next_cursor: '' });
      expect(resolved.body.data).toHaveLength(1);
      const paged = await get('/positions?limit=2');
      expect(paged.body.has_more).toBe(true);
      const rest = await get(`/positions?limit=2&cursor=${paged.body.next_cursor}`);
      expect(rest.body.data).toHaveLength(1);
      expect(rest.body.has_more).toBe(false);
      expect((await get('/positions?status=closed')).status).toBe(422);
    });

    test('when a sell exceeds what the book bought, then the excess counts at zero cost and size never goes negative', () => {
      const s = foldFills([
        { side: 'BUY', price: '0.5', size: '1', fee: '0', created_at: t0 },
        { side: 'SELL', price: '0.6', size: '3', fee: '0', created_at: t0 },
      ], 18);
      expect(s.size).toBe(0n);
      expect(s.cost).toBe(0n);
      expect(s.realized).toBe((3n * 6n * 10n ** 17n - 5n * 10n ** 17n) * 10n ** 18n);
    });
  });
});
