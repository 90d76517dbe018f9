/**
 * A market's book kept from the `book` channel: a snapshot, then deltas whose `seq` grows by one.
 * A delta out of sequence means a message was missed, so the book is stale until a new snapshot.
 */
export interface BookLevel {
  price: string;
  remainingSize: string;
}

export type BookMessage =
  | { type: 'snapshot'; condition_id: string; chain_id?: number; seq: number; bids: BookLevel[]; asks: BookLevel[] }
  | { type: 'delta'; condition_id: string; chain_id?: number; seq: number; changes: { side: 'bid' | 'ask'; price: string; remainingSize: string }[] };

export interface BookView {
  condition_id: string;
  seq: number;
  /** Best first: bids by price descending, asks ascending (YES prices). */
  bids: BookLevel[];
  asks: BookLevel[];
}

/** Prices are at most 2 decimals, so cents compare exactly. */
const cents = (price: string) => Math.round(Number(price) * 100);

export class LocalBook {
  private seq = -1;
  private readonly bid = new Map<string, string>();
  private readonly ask = new Map<string, string>();

  constructor(readonly conditionId: string) {}

  /** Applies a message: 'applied', or 'gap' when a delta does not follow the last seq (nothing applied). */
  apply(message: BookMessage): 'applied' | 'gap' {
    if (message.type === 'snapshot') {
      this.seq = message.seq;
      this.bid.clear();
      this.ask.clear();
      for (const l of message.bids) this.bid.set(l.price, l.remainingSize);
      for (const l of message.asks) this.ask.set(l.price, l.remainingSize);
      return 'applied';
    }
    if (this.seq < 0) return 'gap';
    if (message.seq <= this.seq) return 'applied'; // already in the snapshot
    if (message.seq !== this.seq + 1) {
      this.seq = -1;
      return 'gap';
    }
    this.seq = message.seq;
    for (const c of message.changes) {
      const side = c.side === 'bid' ? this.bid : this.ask;
      if (c.remainingSize === '0') side.delete(c.price);
      else side.set(c.price, c.remainingSize);
    }
    return 'applied';
  }

  view(): BookView {
    const levels = (m: Map<string, string>, dir: number) =>
      [...m].map(([price, remainingSize]) => ({ price, remainingSize })).sort((a, b) => dir * (cents(a.price) - cents(b.price)));
    return { condition_id: this.conditionId, seq: this.seq, bids: levels(this.bid, -1), asks: levels(this.ask, 1) };
  }
}
