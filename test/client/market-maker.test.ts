/**
 * The demo market makers on the public client: two bots quote the market two-sided and, crossing
 * now and then, make trades that settle. Bounded: the test gives them 90 seconds at most. The pool
 * bot finds the OPEN AMM market and trades its pool from its wallet.
 */
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { MarketMaker } from '../../src/bots/market-maker';
import { PoolTrader } from '../../src/bots/pool-trader';
import { createPredexClient, type PredexClient } from '../../src/client';
import { eventually } from '../helpers/eventually';
import { useClientStack } from './client-stack';

describe('the demo market makers', () => {
  const stack = useClientStack('bots');
  const bots: MarketMaker[] = [];
  const clients: PredexClient[] = [];
  afterAll(() => clients.forEach((c) => c.close()));

  it('when two bots run on a market, then its book is quoted on both sides and they trade', async () => {
    const s = stack();
    for (const i of [5, 6]) {
      const trader = await s.trader(i);
      const key = await createPredexClient({ baseUrl: s.url, jwt: await s.jwt(trader.address) }).auth.createApiKey(['read', 'trade']);
      const client = createPredexClient({ baseUrl: s.url, apiKey: key.key_id, apiSecret: key.secret, privateKey: trader.privateKey });
      clients.push(client);
      bots.push(new MarketMaker(client, { market: s.market, fairTicks: 50 + i, spreadTicks: 2, crossChance: 0.5, stepMs: 300 }));
    }
    const running = Promise.all(bots.map((b) => b.run()));
    try {

    const twoSided = await eventually('bids and asks on the book', async () => {
      const book = await clients[0].markets.book(s.market);
      return book.bids.length > 0 && book.asks.length > 0 ? book : undefined;
    }, { timeoutMs: 60_000 });
    expect(Number(twoSided.bids[0].price)).toBeLessThan(Number(twoSided.asks[0].price));

    const fill = await eventually('a bot trade', async () => {
      for (const client of clients) {
        const found = (await client.fills.list()).data[0];
        if (found) return found;
      }
      return undefined;
    }, { timeoutMs: 90_000 });
    expect(fill.condition_id).toBe(s.market);
    expect(bots.reduce((n, b) => n + b.crosses, 0)).toBeGreaterThan(0);
    } finally {
      await Promise.all(bots.map((b) => b.stop()));
      await running;
    }
  }, 180_000);

  it('when the pool bot steps with an OPEN AMM market, then it buys through the pool and the trade is CONFIRMED', async () => {
    const s = stack();
    const [market, trader, platform] = await Promise.all([s.ammMarket(), s.trader(7), s.platformKey()]);
    const key = await createPredexClient({ baseUrl: s.url, jwt: await s.jwt(trader.address) }).auth.createApiKey(['read', 'trade']);
    const client = createPredexClient({ baseUrl: s.url, apiKey: key.key_id, apiSecret: key.secret, ...platform });
    clients.push(client);
    const wallet = createWalletClient({ account: privateKeyToAccount(trader.privateKey), transport: http(s.chain.rpcUrl) });
    const logged: string[] = [];
    // Draws: buy, YES, all of the 5 a buy may spend.
    const bot = new PoolTrader(client, wallet, { maxSpend: '5', reserve: '100', random: () => 0.9999, log: (l) => logged.push(l) });

    const result = await bot.step();
    expect(result?.trade.quote).toMatchObject({ kind: 'AMM', condition_id: market, side: 'BUY', outcome: 1, amount: '5' });
    expect(result?.saved.status).toBe('CONFIRMED');
    expect(logged[0]).toMatch(/^pool bot: bought YES for 5 \(average [\d.]+\), tx 0x/);
    const held = (await client.trade.positions(trader.address)).data.find((p) => p.condition_id === market && p.outcome === 1);
    expect(held?.size).toBe(result?.trade.quote.expected_shares);
  }, 120_000);
});
