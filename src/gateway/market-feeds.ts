import type { Logger } from '../logging/logger';
import type { YesBook } from '../ports/yes-book';
import { FeedTiming, MarketFeed } from './market-feed';
import type { MarketRef } from './market-directory';
import type { MarketStateReader } from './market-state-reader';

export const feedKey = (market: MarketRef) => `${market.chain_id}:${market.condition_id}`;

/**
 * The markets this process serves, one feed each, created by the first subscription and kept
 * `lingerMs` after the last one ends (a client that toggles its subscription costs no re-seed).
 */
export class MarketFeeds {
  private readonly feeds = new Map<string, MarketFeed>();
  private readonly lingering = new Map<string, NodeJS.Timeout>();
  /** Feeds held for /trade quotes, with when a quote last used each. */
  private readonly quoted = new Map<string, { feed: MarketFeed; usedAt: number }>();
  private quoteSweep: NodeJS.Timeout | undefined;
  private closed = false;
  /** Seeds read from the store since start (for stats and tests: O(markets), not O(subscribes)). */
  seedReads = 0;

  constructor(
    private readonly read: MarketStateReader,
    private readonly timing: FeedTiming & { lingerMs: number },
    private readonly onReady: (feed: MarketFeed) => void,
    private readonly logger: Logger,
  ) {}

  get(market: MarketRef): MarketFeed | undefined {
    return this.feeds.get(feedKey(market));
  }

  get size(): number {
    return this.feeds.size;
  }

  /** The market's feed, created (and its seed started) if this process holds none. */
  acquire(market: MarketRef, decimals: number): MarketFeed {
    const key = feedKey(market);
    clearTimeout(this.lingering.get(key));
    this.lingering.delete(key);
    let feed = this.feeds.get(key);
    if (!feed) {
      const read: MarketStateReader = (m, d) => {
        this.seedReads += 1;
        return this.read(m, d);
      };
      feed = new MarketFeed(market, decimals, read, this.timing, this.onReady, (f, error, retryInMs) =>
        this.logger.warn({ err: error, market: f.market, retryInMs }, 'market feed seed read failed; backing off'));
      this.feeds.set(key, feed);
    }
    feed.holders += 1;
    return feed;
  }

  /**
   * The market's book for a quote, from the feed this process keeps current anyway; the first
   * quote of a market acquires its feed (undefined until it is seeded: the caller reads the store).
   * A feed no quote used for `lingerMs` is released.
   */
  bookFor(market: MarketRef, decimals: number): YesBook | undefined {
    if (this.closed) return undefined; // shutting down: no new feed, the quote reads the store
    const key = feedKey(market);
    let held = this.quoted.get(key);
    if (!held) {
      held = { feed: this.acquire(market, decimals), usedAt: 0 };
      this.quoted.set(key, held);
      this.quoteSweep ??= setInterval(() => this.releaseUnquoted(), this.timing.lingerMs / 2).unref();
    }
    held.usedAt = Date.now();
    return held.feed.bookUnits();
  }

  private releaseUnquoted(): void {
    const before = Date.now() - this.timing.lingerMs;
    for (const [key, held] of this.quoted) {
      if (held.usedAt >= before) continue;
      this.quoted.delete(key);
      this.release(held.feed);
    }
  }

  release(feed: MarketFeed): void {
    feed.holders -= 1;
    if (feed.holders > 0) return;
    const key = feedKey(feed.market);
    this.lingering.set(key, setTimeout(() => {
      this.lingering.delete(key);
      if (feed.holders > 0) return;
      feed.close();
      this.feeds.delete(key);
    }, this.timing.lingerMs).unref());
  }

  close(): void {
    this.closed = true;
    clearInterval(this.quoteSweep);
    this.quoted.clear();
    for (const timer of this.lingering.values()) clearTimeout(timer);
    this.lingering.clear();
    for (const feed of this.feeds.values()) feed.close();
    this.feeds.clear();
  }
}
