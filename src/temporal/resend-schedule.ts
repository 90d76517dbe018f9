/**
 * When each lost hand-off may be sent again. A market that is only behind (its steps take the
 * orders seconds late) still has their markers, and a sweep that re-sent them every second filled
 * the market's queue with copies of the same hashes: in the e2e bench, 38,593 hashes for 6,234
 * orders, until the copies carried into continue-as-new passed Temporal's 2 MB input limit and the
 * server terminated the run (docs/matching.md, "Lost hand-offs"). So each order is sent again at
 * most after `firstMs`, then twice as long each time, at most every `maxMs`.
 */
export class ResendSchedule {
  private readonly next = new Map<string, { sends: number; at: number }>();

  constructor(
    private readonly firstMs: number,
    private readonly maxMs: number,
    /** Entries kept at most; past it the schedule starts over (every order due once more). */
    private readonly maxEntries = 100_000,
  ) {}

  /** Whether `hash` may be sent again at `now` (an order never sent is due). */
  due(hash: string, now: number): boolean {
    const entry = this.next.get(hash);
    return entry === undefined || entry.at <= now;
  }

  /** Records a send of `hash` at `now`: the next one waits firstMs x 2^sends, at most maxMs. */
  sent(hash: string, now: number): void {
    if (this.next.size >= this.maxEntries) this.next.clear();
    const sends = (this.next.get(hash)?.sends ?? 0) + 1;
    this.next.set(hash, { sends, at: now + Math.min(this.firstMs * 2 ** sends, this.maxMs) });
  }

  /** Forgets every order not in `present` (their markers are gone: taken, or dropped as orphans). */
  keepOnly(present: ReadonlySet<string>): void {
    for (const hash of this.next.keys()) if (!present.has(hash)) this.next.delete(hash);
  }

  get size(): number {
    return this.next.size;
  }
}
