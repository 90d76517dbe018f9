/**
 * Full cycle: two wallets funded on the embedded chain (real balances, allowances and nonces
 * through the chain module's ChainPort) place crossing orders through the API; the real market workflow
 * (Temporal dev server, real activities) matches them; fills, orders and positions read back
 * consistently. Settlement uses the matching tests' instant fake settlement chain (the real
 * settlement adapter is the chain/matching engineers' piece).
 */
import { createPublicClient, http, maxUint256, type Address } from 'viem';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { createMarketMatcherClient } from '../../src/temporal/market-matcher.client';
import { createViemOrderChainPort, orderChainPortFromChainPorts } from '../../src/orders';
import type { MarketRecord } from '../../src/db/models/market.model';
import { useTestDatabase } from '../helpers/test-database';
import { uniqueTaskQueue } from '../helpers/test-temporal';
import { startFixture, type Fixture } from '../chain/chain-fixture';
import { eventually } from '../helpers/eventually';
import { createHarness, type Harness } from '../workflows/market-harness';
import { asWallet, call, insertMarket, place, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('full cycle on the embedded chain and the market workflow', () => {
  const database = useTestDatabase('orders_cycle');
  let fixture: Fixture;
  let matching: Harness;
  let h: OrderHarness;
  let market: MarketRecord;

  beforeAll(async () => {
    fixture = await startFixture();
    const { exchange, collateral, conditionalTokens } = fixture.local.addresses;
    for (const trader of fixture.traders.slice(0, 2)) {
      const wallet = fixture.walletOf(trader);
      await fixture.port.waitForReceipt(await wallet.writeContract({ address: collateral, abi: collateralAbi, functionName: 'approve', args: [exchange, maxUint256] }), 0);
      await fixture.port.waitForReceipt(await wallet.writeContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'setApprovalForAll', args: [exchange, true] }), 0);
    }
    market = await insertMarket(database.db(), {
      condition_id: fixture.condition.conditionId.toLowerCase(),
      tokens: [
        { outcome: 0, token_id: fixture.condition.noTokenId.toString(), decimals: 18 },
        { outcome: 1, token_id: fixture.condition.yesTokenId.toString(), decimals: 18 },
      ],
      collateral_token: collateral.toLowerCase(),
      ctf_exchange_address: exchange,
      conditional_tokens_address: conditionalTokens,
    });
    const taskQueue = uniqueTaskQueue('orders-cycle');
    matching = await createHarness(database.db(), taskQueue);
    await matching.startWorker();
    h = await startOrderHarness(database.db, {
      matcher: createMarketMatcherClient(matching.client, taskQueue),
      chainPort: orderChainPortFromChainPorts(() => fixture.port),
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await matching?.close();
    await fixture?.stop();
  });

  test('when two funded wallets place crossing orders, then fills, orders and positions agree', async () => {
    const [alice, bob] = fixture.traders;
    // Chain truth checked at ingest: Bob cannot sell more YES than he holds (100).
    const tooMuch = await place(h, bob.address, [signedItem(bob, market, { side: 'SELL', price: '0.6', size: '101' })]);
    expect(tooMuch.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { available: (100n * 10n ** 18n).toString() } });

    const sell = signedItem(bob, market, { side: 'SELL', price: '0.6', size: '10' });
    const sold = await place(h, bob.address, [sell]);
    expect(sold.body.results[0]).toMatchObject({ status: 'OPEN', order_hash: sell.hash });
    const buy = signedItem(alice, market, { side: 'BUY', price: '0.65', size: '10' });
    const bought = await place(h, alice.address, [buy]);
    expect(bought.body.results[0]).toMatchObject({ status: 'OPEN', order_hash: buy.hash, fills: [] });

    const orderOf = async (wallet: Address, hash: string) => (await call(`${h.url}/v1/orders/${hash}`, { headers: asWallet(wallet) })).body;
    const done = ['MATCHED', 'FILLED'];
    await eventually('the buy to match', async () => done.includes((await orderOf(alice.address, buy.hash)).status), { timeoutMs: 60_000 });
    await eventually('the sell to match', async () => done.includes((await orderOf(bob.address, sell.hash)).status), { timeoutMs: 60_000 });
    expect(await orderOf(alice.address, buy.hash)).toMatchObject({ remaining_size: '0', book_added_at: expect.any(String) });

    const aliceFills = (await call(`${h.url}/v1/fills`, { headers: asWallet(alice.address) })).body.data;
    const bobFills = (await call(`${h.url}/v1/fills`, { headers: asWallet(bob.address) })).body.data;
    expect(aliceFills).toHaveLength(1);
    expect(bobFills).toHaveLength(1);
    // The resting sell is the maker: the trade runs at its price, the buyer keeps the improvement.
    expect(aliceFills[0]).toMatchObject({ order_hash: buy.hash, role: 'taker', side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    expect(bobFills[0]).toMatchObject({ order_hash: sell.hash, role: 'maker', side: 'SELL', price: '0.6', size: '10', trade_id: aliceFills[0].trade_id });
    const byTrade = await call(`${h.url}/v1/fills?trade_ids=${aliceFills[0].trade_id}`, { headers: asWallet(alice.address) });
    expect(byTrade.body.data.map((f: { order_hash: string }) => f.order_hash)).toEqual([buy.hash]);

    const alicePositions = (await call(`${h.url}/v1/positions`, { headers: asWallet(alice.address) })).body.data;
    expect(alicePositions).toEqual([
      expect.objectContaining({ condition_id: market.condition_id, outcome: 1, outcome_label: 'YES', size: '10', avg_price: '0.6', realized_pnl: '0', status: 'active' }),
    ]);
    const bobPositions = (await call(`${h.url}/v1/positions`, { headers: asWallet(bob.address) })).body.data;
    expect(bobPositions).toEqual([expect.objectContaining({ outcome: 1, size: '0', realized_pnl: '6' })]);

    const open = await call(`${h.url}/v1/orders?status=open`, { headers: asWallet(alice.address) });
    expect(open.body.data).toEqual([]);
    const filled = await call(`${h.url}/v1/orders?status=filled`, { headers: asWallet(alice.address) });
    expect(filled.body.data.map((o: { order_hash: string }) => o.order_hash)).toEqual([buy.hash]);

    // Settlement confirms (fake settlement chain: instant), the orders end FILLED and nothing stays reserved.
    await eventually('the buy to be FILLED', async () => (await orderOf(alice.address, buy.hash)).status === 'FILLED', { timeoutMs: 60_000 });
    await eventually('the sell to be FILLED', async () => (await orderOf(bob.address, sell.hash)).status === 'FILLED', { timeoutMs: 60_000 });
    const settled = (await call(`${h.url}/v1/fills`, { headers: asWallet(alice.address) })).body.data[0];
    expect(settled).toMatchObject({ settlement_status: 'CONFIRMED' });
    // The filled order's hold is gone: Alice can commit her whole on-chain collateral (1000) again.
    const all = await place(h, alice.address, [signedItem(alice, market, { side: 'BUY', price: '1', size: '1000' })]);
    expect(all.body.results[0].status).toBe('OPEN');
    await eventually('the last order to rest', async () => (await orderOf(alice.address, all.body.results[0].order_hash)).book_added_at, { timeoutMs: 60_000 });
  }, 120_000);

  test('when the plain-viem port and the chain module port read the same wallet, then they agree', async () => {
    const client = createPublicClient({ transport: http(fixture.local.rpcUrl) });
    const ports = [createViemOrderChainPort(() => client as never), orderChainPortFromChainPorts(() => fixture.port)];
    const [trader] = fixture.traders;
    const { exchange, collateral, conditionalTokens } = fixture.local.addresses;
    const args = { chainId: 56, wallet: trader.address, exchange };
    const reads = await Promise.all(
      ports.map(async (p) => [
        await p.collateralFunds({ ...args, collateral }),
        await p.tokenFunds({ ...args, conditionalTokens, tokenId: fixture.condition.yesTokenId }),
        await p.makerNonce(args),
      ]),
    );
    expect(reads[0]).toEqual(reads[1]);
    expect(reads[0][1]).toMatchObject({ approved: true });
    const order = { ...fixture.sign(trader, { side: 'BUY', outcome: 1, price: '0.5', size: '1' }), hash: undefined };
    delete order.hash;
    expect(ports[0].cancelOrderCalldata({ chainId: 56, exchange, order })).toBe(ports[1].cancelOrderCalldata({ chainId: 56, exchange, order }));
  });
});
