import { parseUnitsStrict } from '../money';
import type { DeliveredEvent } from '../ports/realtime-publisher';
import type { YesBook, YesLevel } from '../ports/yes-book';
import { priceToTicksStrict } from '../signing/price-ticks';
import type { BookLevel, BookSnapshot } from './book-snapshot';
import type { MarketRef } from './market-directory';
import { SharedMessage } from './shared-message';

export type BookDelta = Extract<DeliveredEvent, { channel: 'book' }>['payload'];
export type Ticker = Record<string, unknown>;

/** What seeding a feed reads from the store: the book with its seq, and the stored ticker. */
export interface MarketState {
  book: BookSnapshot;
  ticker: Ticker | null;
}

export interface FeedTiming {
  /** Deltas held while a seed is read; past it they are dropped and the gap re-seeds. */
  maxPendingDeltas: number;
  /** Shortest time between two seeds of one market after a gap. */
  minReseedMs: number;
  /** First wait after a failed read; it doubles per failure up to maxSeedBackoffMs. */
  seedBackoffMs: number;
  maxSeedBackoffMs: number;
}

type Side = Map<string, string>;

/**
 * One market's book and ticker as this process last saw them: seeded once from the store, then
 * kept current from the deltas the process receives anyway. A subscriber's snapshot is a copy of
 * it (one encoding per book version, shared by every subscriber), so the store sees one read per
 * market and gap, never one per subscribe. A delta that does not follow the book's seq (an event
 * lost between processes) makes the feed re-seed; its subscribers wait for the new snapshot.
 */
export class MarketFeed {
  seq = 0;
  ticker: Ticker | null = null;
  /** Subscriptions (book or ticker) held on this feed, by every connection. */
  holders = 0;
  private live = false;
  private readonly bids: Side = new Map();
  private readonly asks: Side = new Map();
  private pending: BookDelta[] = [];
  private seedTimer: NodeJS.Timeout | undefined;
  private reading = false;
  private failures = 0;
  private lastSeedAt = 0;
  private snapshot: SharedMessage | undefined;
  private units: YesBook | undefined;
  private closed = false;
  /** Ticker events seen since the seed began: newer than the stored one it reads. */
  private tickerSeen = false;

  constructor(
    readonly market: MarketRef,
    readonly decimals: number,
    private readonly read: (market: MarketRef, decimals: number) => Promise<MarketState>,
    private readonly timing: FeedTiming,
    private readonly onReady: (feed: MarketFeed) => void,
    private readonly onReadFailed: (feed: MarketFeed, error: unknown, retryInMs: number) => void,
  ) {
    this.seed();
  }

  get isLive(): boolean {
    return this.live;
  }

  /** The current book as one `snapshot` message, encoded once per version. */
  snapshotMessage(): SharedMessage {
    this.snapshot ??= new SharedMessage('book', {
      type: 'snapshot', condition_id: this.market.condition_id, chain_id: this.market.chain_id, seq: this.seq,
      bids: levels(this.bids, -1), asks: levels(this.asks, 1),
    });
    return this.snapshot;
  }

  /**
   * The book in ticks and base units with its seq, converted once per version (quotes walk it);
   * undefined while the feed is not live (seeding, or re-seeding after a gap).
   */
  bookUnits(): YesBook | undefined {
    if (!this.live || this.closed) return undefined;
    this.units ??= { seq: this.seq, bids: unitLevels(this.bids, this.decimals), asks: unitLevels(this.asks, this.decimals) };
    return this.units;
  }

  /**
   * Takes one published delta. Returns the message to forward when it extends the book, or
   * undefined (already held, held back while seeding, or a gap that starts a re-seed).
   */
  applyDelta(delta: BookDelta): SharedMessage | undefined {
    if (this.closed) return undefined;
    if (!this.live) {
      if (this.pending.length < this.timing.maxPendingDeltas) this.pending.push(delta);
      return undefined;
    }
    if (delta.seq <= this.seq) return undefined;
    if (delta.seq !== this.seq + 1) {
      this.seed();
      return undefined;
    }
    this.apply(delta);
    return new SharedMessage('book', { type: 'delta', condition_id: this.market.condition_id, chain_id: this.market.chain_id, seq: delta.seq, changes: delta.changes });
  }

  setTicker(ticker: Ticker): void {
    this.ticker = ticker;
    this.tickerSeen = true;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.seedTimer);
  }

  private apply(delta: BookDelta): void {
    for (const change of delta.changes) {
      const side = change.side === 'bid' ? this.bids : this.asks;
      if (change.remainingSize === '0') side.delete(change.price);
      else side.set(change.price, change.remainingSize);
    }
    this.seq = delta.seq;
    this.snapshot = undefined;
    this.units = undefined;
  }

  /** Starts a (re-)seed unless one is under way: concurrent needs of one market share one read. */
  private seed(): void {
    if (this.closed) return;
    this.live = false;
    if (this.seedTimer || this.reading) return;
    this.pending = [];
    const wait = this.failures > 0
      ? Math.min(this.timing.maxSeedBackoffMs, this.timing.seedBackoffMs * 2 ** (this.failures - 1))
      : Math.max(0, this.lastSeedAt + this.timing.minReseedMs - Date.now());
    this.seedTimer = setTimeout(() => {
      this.seedTimer = undefined;
      void this.readSeed();
    }, wait);
  }

  private async readSeed(): Promise<void> {
    this.reading = true;
    this.lastSeedAt = Date.now();
    this.tickerSeen = false;
    let state: MarketState;
    try {
      state = await this.read(this.market, this.decimals);
    } catch (error) {
      this.reading = false;
      this.failures += 1;
      this.onReadFailed(this, error, Math.min(this.timing.maxSeedBackoffMs, this.timing.seedBackoffMs * 2 ** (this.failures - 1)));
      this.seed();
      return;
    }
    this.reading = false;
    this.failures = 0;
    if (this.closed) return;
    this.bids.clear();
    this.asks.clear();
    for (const level of state.book.bids) this.bids.set(level.price, level.remainingSize);
    for (const level of state.book.asks) this.asks.set(level.price, level.remainingSize);
    this.seq = state.book.seq;
    this.snapshot = undefined;
    this.units = undefined;
    if (!this.tickerSeen && state.ticker) this.ticker = state.ticker;
    const held = this.pending;
    this.pending = [];
    for (const delta of held) {
      if (delta.seq <= this.seq) continue;
      // A delta published before the read that never came: read again.
      if (delta.seq !== this.seq + 1) return this.seed();
      this.apply(delta);
    }
    this.live = true;
    this.onReady(this);
  }
}

function unitLevels(side: Side, decimals: number): YesLevel[] {
  return [...side.entries()].map(([price, remainingSize]) => ({ ticks: priceToTicksStrict(price), remaining: parseUnitsStrict(remainingSize, decimals) }));
}

/** One side's levels, best first (bids high to low, asks low to high). */
function levels(side: Side, direction: number): BookLevel[] {
  return [...side.entries()]
    .sort((a, b) => direction * (Number(a[0]) - Number(b[0])))
    .map(([price, remainingSize]) => ({ price, remainingSize }));
}
