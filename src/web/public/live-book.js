import { compareDecimal, runningTotals } from './decimal.js';

/**
 * One market's book as the `book` channel tells it: a snapshot, then deltas whose `seq` grows by
 * one. A delta that does not follow is a gap: the book asks for a fresh snapshot and ignores
 * deltas until it comes (docs/realtime.md, "Gaps").
 */
export class LiveBook {
  constructor() {
    this.seq = null;
    this.bids = new Map();
    this.asks = new Map();
  }

  /** Levels `[{price, remainingSize}]`, best first. */
  applySnapshot(message) {
    this.seq = message.seq;
    this.bids = new Map(message.bids.map((level) => [level.price, level.remainingSize]));
    this.asks = new Map(message.asks.map((level) => [level.price, level.remainingSize]));
  }

  /** Returns 'applied', 'stale' (already in the book) or 'gap' (the caller resubscribes). */
  applyDelta(message) {
    if (this.seq === null) return 'stale';
    if (message.seq <= this.seq) return 'stale';
    if (message.seq !== this.seq + 1) {
      this.seq = null;
      return 'gap';
    }
    for (const change of message.changes) {
      const side = change.side === 'bid' ? this.bids : this.asks;
      // remainingSize is the level's new absolute size; "0" removes it.
      if (compareDecimal(change.remainingSize, '0') === 0) side.delete(change.price);
      else side.set(change.price, change.remainingSize);
    }
    this.seq = message.seq;
    return 'applied';
  }

  /** Waits for the next snapshot (after a resubscribe). */
  reset() {
    this.seq = null;
  }

  /** `[{price, size, total}]`, best first: bids highest first, asks lowest first. */
  levels(side) {
    const entries = [...(side === 'bid' ? this.bids : this.asks)];
    entries.sort(([a], [b]) => (side === 'bid' ? compareDecimal(b, a) : compareDecimal(a, b)));
    const totals = runningTotals(entries.map(([, size]) => size));
    return entries.map(([price, size], i) => ({ price, size, total: totals[i] }));
  }
}
