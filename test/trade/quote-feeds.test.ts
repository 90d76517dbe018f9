/**
 * The books quotes walk are the gateway's market feeds: a market's first quote acquires its feed
 * (cold until seeded), and a feed no quote used for the linger time is released.
 */
import pino from 'pino';
import { MarketFeeds } from '../../src/gateway/market-feeds';

const E18 = 10n ** 18n;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('quote feeds', () => {
  test('when a market is quoted, then its feed is seeded once and released after quotes stop', async () => {
    const market = { chain_id: 56, condition_id: `0x${'e'.repeat(64)}` };
    const feeds = new MarketFeeds(
      async () => ({ book: { seq: 3, bids: [], asks: [{ price: '0.45', remainingSize: '5' }] }, ticker: null }),
      { maxPendingDeltas: 10, minReseedMs: 0, seedBackoffMs: 10, maxSeedBackoffMs: 100, lingerMs: 60 },
      () => undefined,
      pino({ level: 'silent' }),
    );
    try {
      expect(feeds.bookFor(market, 18)).toBeUndefined(); // cold: the quote reads the store
      let book = feeds.bookFor(market, 18);
      for (let i = 0; i < 50 && !book; i += 1) {
        await sleep(10);
        book = feeds.bookFor(market, 18);
      }
      expect(book).toEqual({ seq: 3, bids: [], asks: [{ ticks: 45, remaining: 5n * E18 }] });
      expect([feeds.size, feeds.seedReads]).toEqual([1, 1]);

      await sleep(300);
      expect(feeds.size).toBe(0);
      expect(feeds.bookFor(market, 18)).toBeUndefined(); // acquired again, cold again
      await sleep(50);
      expect(feeds.seedReads).toBe(2);
    } finally {
      feeds.close();
    }
  });
});
