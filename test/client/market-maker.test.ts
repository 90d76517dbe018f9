/**
 * The demo market makers on the public client: two bots quote the market two-sided and, crossing
 * now and then, make trades that settle. Bounded: the test gives them 90 seconds at most.
 */
import { MarketMaker } from '../../src/bots/market-maker';
import { createPredexClient, type PredexClient } from '../../src/client';
import { eventually, useClientStack } from './client-stack';

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
    }, 60_000);
    expect(Number(twoSided.bids[0].price)).toBeLessThan(Number(twoSided.asks[0].price));

    const fill = await eventually('a bot trade', async () => {
      for (const client of clients) {
        const found = (await client.fills.list()).data[0];
        if (found) return found;
      }
      return undefined;
    }, 90_000);
    expect(fill.condition_id).toBe(s.market);
    expect(bots.reduce((n, b) => n + b.crosses, 0)).toBeGreaterThan(0);
    } finally {
      await Promise.all(bots.map((b) => b.stop()));
      await running;
    }
  }, 180_000);
});
