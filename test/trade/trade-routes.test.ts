/**
 * The /trade routes on the real app and database, with the chain and the workflow starter replaced
 * by small in-test fakes: platform keys, the precise codes of bad input, CLOB quotes from a seeded
 * book, the AMM branch's routing, and the save record's idempotency.
 */
import pino from 'pino';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { buildRootRouters, buildV1Routers, createApiModules, type ApiModules } from '../../src/api/routes';
import { requirePlatformKey } from '../../src/auth/platform-key.guard';
import { createPlatformKeyModel, createSavedTradeModel, createTradeTxModel, type MarketRecord } from '../../src/db/models';
import { createChainRegistry } from '../../src/markets/chains';
import { createFillReadModel } from '../../src/orders/models/fill.model';
import { createTradeRouters, type AmmVenue } from '../../src/trade';
import type { TradeChain } from '../../src/trade/trade-chain';
import type { TradeTxInput } from '../../workflows/trade-tx.workflow';
import { ADMIN_TOKEN, bearer, call, JWT_SECRET, PEPPER, signJwt, TEST_CHAIN, WALLET_A, WALLET_B } from '../api/app-harness';
import { createTestConditionPreparer } from '../api/test-condition-preparer';
import { useTestDatabase } from '../helpers/test-database';

const E18 = 10n ** 18n;
const TX = `0x${'ab'.repeat(32)}`;

describe('the /trade API (routes, keys and input codes)', () => {
  const database = useTestDatabase('traderoutes');
  let modules: ApiModules;
  let api: RunningApi;
  let url: string;
  let platform: Record<string, string>;
  const started: TradeTxInput[] = [];
  let startFails = false;
  const ammCalls: { method: string; market: string; request: unknown }[] = [];
  const chain: TradeChain = {
    nonceOf: async () => 7n,
    balancesOf: async (_ctf, _wallet, ids) => ids.map((_, i) => (i % 2 === 1 ? 3n * E18 : 0n)),
    payoutsOf: async () => ({ numerators: [0n, 1n], denominator: 1n }),
  };
  // A fake venue for routing only: the real pool's exactness is tested with the pool.
  const amm: AmmVenue = {
    quote: async (market, request) => {
      ammCalls.push({ method: 'quote', market: market.condition_id, request });
      return { kind: 'AMM', from: 'fake venue' };
    },
    trade: async (market, request) => {
      ammCalls.push({ method: 'trade', market: market.condition_id, request });
      return { kind: 'AMM', tx: 'fake' };
    },
  };

  beforeAll(async () => {
    const db = database.db();
    const preparer = createTestConditionPreparer();
    modules = createApiModules({
      db, logger: pino({ level: 'silent' }), chains: createChainRegistry([TEST_CHAIN]), preparerFor: () => preparer,
      apiKeyPepper: PEPPER, jwt: { secret: JWT_SECRET }, adminToken: ADMIN_TOKEN, apiKeyUsageFlushMs: 60_000,
    });
    const trade = createTradeRouters({
      store: modules.store, chains: modules.deps.chains, chain, fills: createFillReadModel(db), savedTrades: createSavedTradeModel(db),
      txs: createTradeTxModel(db), requirePlatform: requirePlatformKey(modules.platformKeys), amm, marketRecords: modules.marketRecords,
      starter: { start: async (input) => { if (startFails) throw new Error('temporal down'); started.push(input); } },
    });
    api = await startApiServer({ host: '127.0.0.1', port: 0, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), readiness: [], v1Routers: buildV1Routers(modules), rootRouters: [...buildRootRouters(modules), ...trade] });
    url = api.url;
    const issued = await call(`${url}/admin/platform-keys`, { method: 'POST', headers: { 'x-admin-token': ADMIN_TOKEN }, body: { name: 'partner app' } });
    platform = { 'fs-platform-key': issued.body.key_id, 'fs-platform-secret': issued.body.secret };
  });
  afterAll(async () => {
    await api?.close();
    await modules?.close();
  });

  const admin = { 'x-admin-token': ADMIN_TOKEN };
  async function newMarket(fee = 100): Promise<MarketRecord> {
    const res = await call(`${url}/admin/markets`, { method: 'POST', headers: admin, body: { question: `Market ${Math.random()}?`, end_date: '2031-01-01T00:00:00Z', fee_rate_bps: fee } });
    expect(res.status).toBe(201);
    return (await modules.store.markets.findOne({ condition_id: res.body.condition_id }).lean<MarketRecord>().exec())!;
  }
  async function seedBook(m: MarketRecord, levels: { side: 'BID' | 'ASK'; ticks: number; shares: bigint }[]) {
    for (const l of levels) {
      await modules.store.bookLevels.create({ chain_id: m.chain_id, condition_id: m.condition_id, side: l.side, ticks: l.ticks, price: (l.ticks / 100).toString(), remaining: (l.shares * E18).toString(), seq: 1 });
    }
  }
  const quote = (body: Record<string, unknown>) => call(`${url}/trade/quote`, { method: 'POST', body });

  describe('platform keys', () => {
    test('when an operator issues a key, then the secret is shown once, stored hashed, listed without it, and works on platform routes', async () => {
      const res = await call(`${url}/admin/platform-keys`, { method: 'POST', headers: admin, body: { name: 'wallet app' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ key_id: expect.any(String), secret: expect.any(String), name: 'wallet app', created_at: expect.any(String) });
      const row = await createPlatformKeyModel(database.db()).findOne({ key_id: res.body.key_id }).lean().exec();
      expect(JSON.stringify(row)).not.toContain(res.body.secret);
      const list = await call(`${url}/admin/platform-keys`, { headers: admin });
      expect(list.body.data.find((k: { key_id: string }) => k.key_id === res.body.key_id)).toEqual({ key_id: res.body.key_id, name: 'wallet app', created_at: res.body.created_at, revoked_at: null });
      expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
      expect((await call(`${url}/admin/platform-keys`, { method: 'POST', body: { name: 'x' } })).body.code).toBe('AUTH_MISSING');
    });

    test('when a key is missing, wrong or revoked, then 401 AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED; revocation works at once', async () => {
      const save = (headers: Record<string, string>) => call(`${url}/trade/save`, { method: 'POST', headers, body: { chain_id: 56, tx_hash: TX, wallet: WALLET_A } });
      expect([(await save({})).status, (await save({})).body.code]).toEqual([401, 'AUTH_MISSING']);
      expect((await save({ ...platform, 'fs-platform-secret': 'wrong' })).body.code).toBe('AUTH_INVALID');
      const key = (await call(`${url}/admin/platform-keys`, { method: 'POST', headers: admin, body: { name: 'short lived' } })).body;
      const headers = { 'fs-platform-key': key.key_id, 'fs-platform-secret': key.secret };
      expect((await save(headers)).status).toBe(202);
      const revoked = await call(`${url}/admin/platform-keys/${key.key_id}`, { method: 'DELETE', headers: admin });
      expect(revoked.body).toMatchObject({ key_id: key.key_id, revoked_at: expect.any(String) });
      expect([(await save(headers)).status, (await save(headers)).body.code]).toEqual([401, 'AUTH_REVOKED']);
    });

    test('when a platform key calls /v1 private routes, or trader credentials call platform routes, then 403 FORBIDDEN', async () => {
      const v1 = await call(`${url}/v1/auth/ws-token`, { method: 'POST', headers: platform });
      expect([v1.status, v1.body.code]).toEqual([403, 'FORBIDDEN']);
      const jwt = await signJwt(WALLET_A);
      const trade = await call(`${url}/trade/save`, { method: 'POST', headers: bearer(jwt), body: { chain_id: 56, tx_hash: TX, wallet: WALLET_A } });
      expect([trade.status, trade.body.code]).toEqual([403, 'FORBIDDEN']);
      const apiKey = await call(`${url}/trade/redeem`, { method: 'POST', headers: { 'fs-api-key': 'k', 'fs-api-secret': 's' }, body: {} });
      expect([apiKey.status, apiKey.body.code]).toEqual([403, 'FORBIDDEN']);
    });
  });

  describe('CLOB quotes and trades', () => {
    test('when the book has asks, then a BUY quote walks them and POST /trade returns a MARKET order at the worst price within the slippage', async () => {
      const m = await newMarket();
      await seedBook(m, [{ side: 'ASK', ticks: 60, shares: 10n }, { side: 'ASK', ticks: 65, shares: 4n }, { side: 'BID', ticks: 40, shares: 5n }]);
      const q = await quote({ chain_id: 56, condition_id: m.condition_id, outcome: 1, side: 'BUY', amount: '6.6935' });
      expect(q.status).toBe(200);
      expect(q.body).toMatchObject({
        kind: 'CLOB', outcome: 1, side: 'BUY', amount: '6.6935', expected_shares: '11', average_price: '0.604545', price_before: '0.6', price_after: '0.65',
        price_impact_bps: 75, fee: '0.0435', block_number: null,
      });
      expect(q.body.partial).toBeUndefined();
      const t = await call(`${url}/trade`, { method: 'POST', headers: platform, body: { chain_id: 56, condition_id: m.condition_id, wallet: WALLET_B, outcome: 1, side: 'BUY', amount: '6.6935', slippage_bps: 500 } });
      expect(t.status).toBe(200);
      expect(t.body.order).toMatchObject({ order_type: 'MARKET', side: 'BUY', outcome: 1, price: '0.68', size: '11', nonce: '7', fee_rate_bps: 100, signer: WALLET_B, expiration: '0' });
      expect(t.body.typed_data).toMatchObject({ primaryType: 'Order', domain: { name: 'ServiceExchange', version: '1', chainId: 56 }, message: { nonce: '7', makerAmount: '7480000000000000000' } });
    });

    test('when the book cannot take the amount, then the quote names the fillable part and partial: true', async () => {
      const m = await newMarket(0);
      await seedBook(m, [{ side: 'BID', ticks: 40, shares: 5n }]);
      const q = await quote({ chain_id: 56, condition_id: m.condition_id, outcome: 1, side: 'SELL', amount: '8' });
      expect(q.body).toMatchObject({ expected_collateral: '2', fillable_amount: '5', partial: true, price_after: null });
      const empty = await call(`${url}/trade`, { method: 'POST', headers: platform, body: { chain_id: 56, condition_id: m.condition_id, wallet: WALLET_A, outcome: 0, side: 'SELL', amount: '1' } });
      expect([empty.status, empty.body.code]).toEqual([422, 'VALIDATION_ERROR']);
    });

    test('when input is bad, then each case has its precise code and nothing is written', async () => {
      const m = await newMarket();
      const base = { chain_id: 56, condition_id: m.condition_id, outcome: 1, side: 'BUY', amount: '1' };
      const codeOf = async (body: Record<string, unknown>) => (await quote(body)).body.code;
      expect(await codeOf({ ...base, condition_id: `0x${'12'.repeat(32)}` })).toBe('NOT_FOUND');
      expect(await codeOf({ ...base, chain_id: 1 })).toBe('NOT_FOUND');
      for (const amount of ['0', '-1', '0.0000000000000000001', '1e5', '1234567890123456', '', 5]) expect(await codeOf({ ...base, amount })).toBe('VALIDATION_ERROR');
      expect(await codeOf({ ...base, outcome: 2 })).toBe('VALIDATION_ERROR');
      const trade = (body: Record<string, unknown>) => call(`${url}/trade`, { method: 'POST', headers: platform, body: { ...base, wallet: WALLET_A, ...body } });
      expect((await trade({ slippage_bps: 5001 })).body.code).toBe('VALIDATION_ERROR');
      expect((await trade({ slippage_bps: -1 })).body.code).toBe('VALIDATION_ERROR');
      expect((await trade({ wallet: '0x123' })).body.code).toBe('VALIDATION_ERROR');
      await call(`${url}/admin/markets/${m.condition_id}/status?chain_id=56`, { method: 'POST', headers: admin, body: { status: 'PAUSED' } });
      expect(await codeOf(base)).toBe('MARKET_NOT_ACTIVE');
      expect((await trade({})).body.code).toBe('MARKET_NOT_ACTIVE');
      const save = (body: Record<string, unknown>) => call(`${url}/trade/save`, { method: 'POST', headers: platform, body: { chain_id: 56, tx_hash: TX, wallet: WALLET_A, ...body } });
      const before = await createTradeTxModel(database.db()).countDocuments().exec();
      expect((await save({ tx_hash: '0x1234' })).body.code).toBe('VALIDATION_ERROR');
      expect((await save({ wallet: 'alice' })).body.code).toBe('VALIDATION_ERROR');
      expect((await save({ chain_id: 1, tx_hash: `0x${'cd'.repeat(32)}` })).body.code).toBe('NOT_FOUND');
      expect(await createTradeTxModel(database.db()).countDocuments().exec()).toBe(before);
    });
  });

  describe('AMM markets (routing to the venue, with an in-test fake venue)', () => {
    test('when an AMM market is quoted and traded, then the venue gets the validated request and its body is the answer', async () => {
      const m = await newMarket();
      await modules.store.markets.updateOne({ condition_id: m.condition_id }, { $set: { kind: 'AMM' } }).exec();
      const q = await quote({ chain_id: 56, condition_id: m.condition_id, outcome: 0, side: 'SELL', amount: '2.5' });
      expect(q.body).toEqual({ kind: 'AMM', from: 'fake venue' });
      const t = await call(`${url}/trade`, { method: 'POST', headers: platform, body: { chain_id: 56, condition_id: m.condition_id, wallet: WALLET_A, outcome: 1, side: 'BUY', amount: '10' } });
      expect(t.body).toEqual({ kind: 'AMM', tx: 'fake' });
      expect(ammCalls).toEqual([
        { method: 'quote', market: m.condition_id, request: { outcome: 0, side: 'SELL', amount: '2.5' } },
        { method: 'trade', market: m.condition_id, request: { outcome: 1, side: 'BUY', amount: '10', wallet: WALLET_A, slippage_bps: 100 } },
      ]);
      const list = await call(`${url}/trade/markets?kind=AMM`);
      expect(list.body.data.map((x: { condition_id: string }) => x.condition_id)).toEqual([m.condition_id]);
      expect(list.body.data[0]).toMatchObject({ kind: 'AMM' });
      const clob = await call(`${url}/trade/markets?kind=clob&limit=1`);
      expect(clob.body).toMatchObject({ has_more: true, data: [expect.objectContaining({ kind: 'CLOB', best_bid: null, best_ask: null, last_price: null })] });
      expect((await call(`${url}/trade/markets?kind=pool`)).body.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('saved transactions, positions, redeem', () => {
    test('when a hash is saved twice, then the same record comes back and one workflow start per save; another wallet gets 409', async () => {
      const hash = `0x${'ef'.repeat(32)}`;
      const first = await call(`${url}/trade/save`, { method: 'POST', headers: platform, body: { chain_id: 56, tx_hash: hash.toUpperCase().replace('0X', '0x'), wallet: WALLET_B } });
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ chain_id: 56, tx_hash: hash, wallet: WALLET_B, status: 'PENDING', created_at: expect.any(String) });
      const again = await call(`${url}/trade/save`, { method: 'POST', headers: platform, body: { chain_id: 56, tx_hash: hash, wallet: WALLET_B } });
      expect(again.body).toEqual(first.body);
      expect(started.filter((s) => s.tx_hash === hash)).toEqual([{ chain_id: 56, tx_hash: hash, wallet: WALLET_B }, { chain_id: 56, tx_hash: hash, wallet: WALLET_B }]);
      const other = await call(`${url}/trade/save`, { method: 'POST', headers: platform, body: { chain_id: 56, tx_hash: hash, wallet: WALLET_A } });
      expect([other.status, other.body.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
      expect((await call(`${url}/trade/save/${hash}?chain_id=56`)).body).toEqual(first.body);
      expect((await call(`${url}/trade/save/0x${'00'.repeat(32)}`)).body.code).toBe('NOT_FOUND');
    });

    test('when the workflow cannot be started, then the save fails SERVICE_DEGRADED and leaves no record', async () => {
      const hash = `0x${'77'.repeat(32)}`;
      startFails = true;
      try {
        const res = await call(`${url}/trade/save`, { method: 'POST', headers: platform, body: { chain_id: 56, tx_hash: hash, wallet: WALLET_A } });
        expect([res.status, res.body.code]).toEqual([503, 'SERVICE_DEGRADED']);
      } finally {
        startFails = false;
      }
      expect((await call(`${url}/trade/save/${hash}`)).body.code).toBe('NOT_FOUND');
    });

    test('when a market is not resolved, then redeem is 422 MARKET_NOT_RESOLVED; once resolved it pays the winning balance', async () => {
      const m = await newMarket();
      const redeem = () => call(`${url}/trade/redeem`, { method: 'POST', headers: platform, body: { chain_id: 56, condition_id: m.condition_id, wallet: WALLET_A } });
      expect([(await redeem()).status, (await redeem()).body.code]).toEqual([422, 'MARKET_NOT_RESOLVED']);
      await call(`${url}/admin/markets/${m.condition_id}/status?chain_id=56`, { method: 'POST', headers: admin, body: { status: 'RESOLVED', resolution_outcome: 1 } });
      const paid = await redeem();
      expect(paid.body).toMatchObject({ payout: '3', tx: { chain_id: 56, to: m.conditional_tokens_address, value: '0', data: expect.stringMatching(/^0x/) } });
      const positions = await call(`${url}/trade/positions?wallet=${WALLET_A}&status=resolved`);
      expect(positions.body.data).toEqual([expect.objectContaining({ condition_id: m.condition_id, outcome: 1, outcome_label: 'YES', size: '3', current_price: '1', current_value: '3', redeemable: true, avg_price: null })]);
      expect((await call(`${url}/trade/positions`)).body.code).toBe('VALIDATION_ERROR');
    });

    test('when positions span more than a page, then pages follow the cursor without repeats', async () => {
      const all: string[] = [];
      let cursor = '';
      for (let i = 0; i < 20; i++) {
        const page = await call(`${url}/trade/positions?wallet=${WALLET_A}&status=all&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        all.push(...page.body.data.map((p: { condition_id: string; outcome: number }) => `${p.condition_id}:${p.outcome}`));
        if (!page.body.has_more) break;
        cursor = page.body.next_cursor;
      }
      const markets = await modules.store.markets.countDocuments().exec();
      expect(all).toHaveLength(markets);
      expect(new Set(all).size).toBe(all.length);
    });
  });
});
