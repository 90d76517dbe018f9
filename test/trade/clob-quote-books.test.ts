/**
 * CLOB quotes from the book a process keeps in memory (the gateway's market feed, seeded from the
 * store and then moved by book deltas) answer exactly as quotes from the store's book rows, over
 * random books and random requests.
 */
import pino from 'pino';
import type { MarketRecord } from '../../src/db/models';
import { MarketFeed } from '../../src/gateway/market-feed';
import { createMarketStateReader } from '../../src/gateway/market-state-reader';
import { createMarketStore } from '../../src/markets/market-store';
import { formatCanonical } from '../../src/money';
import { priceOfTicks } from '../../src/presenters/present-ticker';
import { amountUnits, quoteClobBook, readBook, type QuoteRequest } from '../../src/trade/clob-quote-of-market';
import { useTestDatabase } from '../helpers/test-database';

const E18 = 10n ** 18n;
const TIMING = { maxPendingDeltas: 100, minReseedMs: 0, seedBackoffMs: 10, maxSeedBackoffMs: 100 };

/** A seeded generator, so that a failure can be replayed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

type Level = { side: 'bid' | 'ask'; ticks: number; units: bigint };

describe('CLOB quotes: the in-memory book and the store agree', () => {
  const database = useTestDatabase('clobbooks');
  const logger = pino({ level: 'silent' });

  test('when random books are quoted from the feed and from the store, then every answer is the same', async () => {
    const store = createMarketStore(database.db());
    const readState = createMarketStateReader(database.db());
    const random = generator(37);
    const pick = (n: number) => Math.floor(random() * n);
    const sizeOf = () => (pick(4) === 0 ? BigInt(pick(1_000_000)) * 10n ** 12n + BigInt(pick(1000)) : BigInt(1 + pick(40)) * E18 / BigInt(1 + pick(8)));
    const randomLevels = (): Level[] => Array.from({ length: 1 + pick(12) }, () => {
      const side = pick(2) === 0 ? 'bid' : 'ask';
      return { side, ticks: side === 'bid' ? 1 + pick(49) : 51 + pick(49), units: sizeOf() } as Level;
    });
    const requests = (): QuoteRequest[] => Array.from({ length: 12 }, () => ({
      side: pick(2) === 0 ? 'BUY' : 'SELL', outcome: pick(2) as 0 | 1, amount: formatCanonical(sizeOf() * BigInt(1 + pick(5)), 18),
    }));
    const writeLevels = async (market: MarketRecord, levels: Level[], seq: number) => {
      const key = { chain_id: market.chain_id, condition_id: market.condition_id };
      for (const l of levels) {
        const side = l.side === 'bid' ? 'BID' : 'ASK';
        await store.bookLevels.updateOne({ ...key, side, ticks: l.ticks }, { $set: { price: priceOfTicks(l.ticks), remaining: l.units.toString(), seq } }, { upsert: true }).exec();
      }
      await store.bookStates.updateOne(key, { $set: { seq } }, { upsert: true }).exec();
    };

    let compared = 0;
    for (let round = 0; round < 8; round += 1) {
      const market = {
        chain_id: 56, condition_id: `0x${round.toString(16).padStart(64, 'c')}`, fee_rate_bps: pick(3) * 100, tokens: [{ decimals: 18 }, { decimals: 18 }],
      } as unknown as MarketRecord;
      await writeLevels(market, randomLevels(), 1);
      let ready!: () => void;
      const live = new Promise<void>((resolve) => { ready = resolve; });
      const feed = new MarketFeed(market, 18, readState, TIMING, () => ready(), (_f, error) => logger.warn({ err: error }));
      await live;
      // Deltas after the seed: new sizes, new levels and emptied ones, on the store and the feed alike.
      for (let seq = 2; seq <= 4; seq += 1) {
        const changes = randomLevels().map((l) => ({ ...l, units: pick(4) === 0 ? 0n : l.units }));
        await writeLevels(market, changes, seq);
        feed.applyDelta({ type: 'delta', seq, changes: changes.map((l) => ({ side: l.side, price: priceOfTicks(l.ticks), remainingSize: formatCanonical(l.units, 18) })) });
        const fromStore = await readBook(store, market);
        const fromFeed = feed.bookUnits();
        expect(fromFeed?.seq).toBe(seq);
        for (const request of requests()) {
          const amount = amountUnits(request.amount, 18);
          expect(quoteClobBook(market, request, amount, fromFeed!).body).toEqual(quoteClobBook(market, request, amount, fromStore).body);
          compared += 1;
        }
      }
      feed.close();
    }
    expect(compared).toBe(8 * 3 * 12);
  });

  test('when a delta skips a seq, then the feed offers no book until it has read the store again', async () => {
    const market = { chain_id: 56, condition_id: `0x${'d'.repeat(64)}` };
    let reads = 0;
    let ready!: () => void;
    const live = () => new Promise<void>((resolve) => { ready = resolve; });
    const seeded = live();
    const feed = new MarketFeed(market, 18, async () => {
      reads += 1;
      return { book: { seq: reads === 1 ? 1 : 5, bids: [{ price: '0.4', remainingSize: '2' }], asks: [] }, ticker: null };
    }, TIMING, () => ready(), () => undefined);
    await seeded;
    expect(feed.bookUnits()).toEqual({ seq: 1, bids: [{ ticks: 40, remaining: 2n * E18 }], asks: [] });
    const reseeded = live();
    feed.applyDelta({ type: 'delta', seq: 3, changes: [] });
    expect(feed.bookUnits()).toBeUndefined();
    await reseeded;
    expect(feed.bookUnits()?.seq).toBe(5);
    feed.close();
  });
});
