import type { BookDelta, MarketState } from '../../src/gateway/market-feed';
import { MarketFeeds } from '../../src/gateway/market-feeds';
import { createLogger } from '../../src/logging/logger';

const market = { chain_id: 56, condition_id: `0x${'ab'.repeat(32)}` };
const timing = { maxPendingDeltas: 100, minReseedMs: 0, seedBackoffMs: 20, maxSeedBackoffMs: 160, lingerMs: 50 };
const logger = createLogger({ level: 'silent' });
const delta = (seq: number, price: string, size: string): BookDelta => ({ type: 'delta', seq, changes: [{ side: 'bid', price, remainingSize: size }] });
const state = (seq: number, bids: [string, string][]): MarketState => ({
  book: { seq, bids: bids.map(([price, remainingSize]) => ({ price, remainingSize })), asks: [] },
  ticker: null,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A store read the test releases by hand. */
function heldReads() {
  const calls: { resolve: (s: MarketState) => void; reject: (e: Error) => void }[] = [];
  const read = () => new Promise<MarketState>((resolve, reject) => calls.push({ resolve, reject }));
  return { calls, read };
}

async function until(check: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(5);
  }
}

describe('market feeds: one in-memory book per market', () => {
  let feeds: MarketFeeds | undefined;
  afterEach(() => feeds?.close());

  it('when many subscriptions take one market, then its book is read from the store once, and deltas held during the read are applied after it', async () => {
    const reads = heldReads();
    const ready: number[] = [];
    feeds = new MarketFeeds(reads.read, timing, (f) => ready.push(f.seq), logger);
    const feed = feeds.acquire(market, 6);
    for (let i = 0; i < 999; i += 1) expect(feeds.acquire(market, 6)).toBe(feed);
    await until(() => reads.calls.length === 1);
    expect(feed.applyDelta(delta(5, '0.4', '1'))).toBeUndefined(); // older than the read: already in it
    expect(feed.applyDelta(delta(6, '0.41', '2'))).toBeUndefined(); // held until the read lands
    reads.calls[0].resolve(state(5, [['0.4', '1'], ['0.3', '3']]));
    await until(() => ready.length === 1);
    await sleep(50);
    expect(reads.calls).toHaveLength(1);
    expect(feeds.seedReads).toBe(1);
    expect(feed.seq).toBe(6);
    expect(feed.snapshotMessage().payload).toEqual({
      type: 'snapshot', condition_id: market.condition_id, chain_id: 56, seq: 6,
      bids: [{ price: '0.41', remainingSize: '2' }, { price: '0.4', remainingSize: '1' }, { price: '0.3', remainingSize: '3' }], asks: [],
    });
    // A copy per version: every subscriber of this seq shares one encoded message.
    expect(feed.snapshotMessage()).toBe(feed.snapshotMessage());
    const next = feed.applyDelta(delta(7, '0.3', '0'));
    expect(next?.payload).toMatchObject({ type: 'delta', seq: 7 });
    expect(feed.snapshotMessage().payload).toMatchObject({ seq: 7, bids: [{ price: '0.41' }, { price: '0.4' }] });
  });

  it('when a delta skips a seq, then the feed re-seeds from the store and is ready again at the stored seq', async () => {
    const reads = heldReads();
    let ready = 0;
    feeds = new MarketFeeds(reads.read, timing, () => (ready += 1), logger);
    const feed = feeds.acquire(market, 6);
    await until(() => reads.calls.length === 1);
    reads.calls[0].resolve(state(1, [['0.4', '1']]));
    await until(() => ready === 1);
    expect(feed.applyDelta(delta(3, '0.5', '1'))).toBeUndefined();
    expect(feed.isLive).toBe(false);
    await until(() => reads.calls.length === 2);
    reads.calls[1].resolve(state(3, [['0.4', '1'], ['0.5', '1']]));
    await until(() => ready === 2);
    expect(feed.seq).toBe(3);
    expect(feed.applyDelta(delta(4, '0.5', '0'))?.payload).toMatchObject({ seq: 4 });
  });

  it('when the store read fails, then the feed retries with a doubling back-off, not in a loop', async () => {
    let attempts = 0;
    const at: number[] = [];
    let ready = 0;
    feeds = new MarketFeeds(async () => {
      attempts += 1;
      at.push(Date.now());
      if (attempts <= 4) throw new Error('store down');
      return state(0, []);
    }, timing, () => (ready += 1), logger);
    feeds.acquire(market, 6);
    await until(() => ready === 1, 3_000);
    expect(attempts).toBe(5);
    const waits = at.slice(1).map((t, i) => t - at[i]);
    // 20, 40, 80, 160 ms (timers fire no earlier than asked)
    expect(waits[0]).toBeGreaterThanOrEqual(19);
    expect(waits[1]).toBeGreaterThanOrEqual(39);
    expect(waits[2]).toBeGreaterThanOrEqual(79);
    expect(waits[3]).toBeGreaterThanOrEqual(159);
  });

  it('when the last subscription ends, then the feed lingers and a return within the linger costs no read', async () => {
    let reads = 0;
    feeds = new MarketFeeds(async () => {
      reads += 1;
      return state(0, []);
    }, timing, () => undefined, logger);
    const feed = feeds.acquire(market, 6);
    await until(() => feed.isLive);
    feeds.release(feed);
    expect(feeds.acquire(market, 6)).toBe(feed);
    feeds.release(feed);
    await sleep(100);
    expect(feeds.size).toBe(0);
    expect(reads).toBe(1);
  });
});
