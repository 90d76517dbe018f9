import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { MarketRecord } from '../../src/db/models/market.model';
import { useTestDatabase } from '../helpers/test-database';
import { COLLATERAL, ONE, asWallet, call, insertMarket, place, readOnlyKey, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('GET /v1/balances', () => {
  const database = useTestDatabase('orders_balances_route');
  let h: OrderHarness;
  let market: MarketRecord;
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
    market = await insertMarket(database.db());
  });
  afterAll(async () => h.close());

  const fresh = () => {
    const key = generatePrivateKey();
    return { address: privateKeyToAccount(key).address, privateKey: key };
  };
  const balances = async (address: string) => (await call(`${h.url}/v1/balances?chain_id=56`, { headers: asWallet(address) })).body;

  test('when BUYs are placed until available is 0, then the next is refused; a cancel raises available by its reservation', async () => {
    const w = fresh();
    h.chain.fund(w.address, 10n * ONE, 12n * ONE);
    const before = await balances(w.address);
    expect(before).toEqual({ collateral: { token: COLLATERAL, balance: '10', allowance: '12', reserved: '0', available: '10' }, tokens: [] });

    // Each BUY 4 @ 0.5 reserves 2 collateral: five of them take all 10.
    const placed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const item = signedItem(w, market, { price: '0.5', size: '4', salt: BigInt(1000 + i) });
      expect((await place(h, w.address, [item])).body.results[0].status).toBe('OPEN');
      placed.push(item.hash);
      expect((await balances(w.address)).collateral).toMatchObject({ reserved: String(2 * (i + 1)), available: String(10 - 2 * (i + 1)) });
    }
    const next = await place(h, w.address, [signedItem(w, market, { price: '0.01', size: '10', salt: 2000n })]);
    expect(next.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { available: '0' } });

    const cancel = await call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: asWallet(w.address), body: { order_hashes: [placed[0]] } });
    expect(cancel.body.cancelled).toEqual([placed[0]]);
    // The matcher's write of the cancel announces the order's hold, now 0, as the workflow does.
    await h.orders.onRealtimeEvent({ channel: 'holds', holds: [{
      order_hash: placed[0], wallet: w.address.toLowerCase(), chain_id: 56, condition_id: market.condition_id, side: 'BUY', token_id: market.tokens[1].token_id, reserved_units: '0',
    }] });
    const after = await balances(w.address);
    expect(after.collateral).toMatchObject({ reserved: '8', available: '2' });
    // The tokens of the market the wallet trades are listed, nothing held on them.
    expect(after.tokens.map((t: { outcome: number }) => t.outcome)).toEqual([0, 1]);
    expect(after.tokens[1]).toEqual({ token_id: market.tokens[1].token_id, condition_id: market.condition_id, outcome: 1, balance: '0', approved: false, reserved: '0', available: '0' });
    // Exactly what placement sees: an order needing the 2 left is accepted.
    const fits = await place(h, w.address, [signedItem(w, market, { price: '0.5', size: '4', salt: 3000n })]);
    expect(fits.body.results[0].status).toBe('OPEN');
  });

  test('when outcome tokens are held and offered, then the token shows balance, approval, reserved and available', async () => {
    const w = fresh();
    h.chain.give(w.address, market.tokens[1].token_id, 7n * ONE, true);
    const sell = signedItem(w, market, { side: 'SELL', price: '0.6', size: '3' });
    expect((await place(h, w.address, [sell])).body.results[0].status).toBe('OPEN');
    const body = await balances(w.address);
    expect(body.tokens.find((t: { outcome: number }) => t.outcome === 1)).toEqual({
      token_id: market.tokens[1].token_id, condition_id: market.condition_id, outcome: 1, balance: '7', approved: true, reserved: '3', available: '4',
    });
    expect(body.collateral).toMatchObject({ balance: '0', available: '0' });
  });

  test('when the chain is unknown or the query is bad, then NOT_FOUND or 422; a read-only key may read', async () => {
    const w = fresh();
    expect((await call(`${h.url}/v1/balances?chain_id=1`, { headers: asWallet(w.address) })).status).toBe(404);
    expect((await call(`${h.url}/v1/balances?foo=1`, { headers: asWallet(w.address) })).status).toBe(422);
    expect((await call(`${h.url}/v1/balances`, { headers: readOnlyKey(w.address) })).status).toBe(200);
    expect((await call(`${h.url}/v1/balances`)).status).toBe(401);
  });
});
