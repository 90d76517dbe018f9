/** A token bucket: `rate` tokens a second on average, at most `burst` at once. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** Takes one token; false when none is left. */
  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether the bucket is back to full (nothing to remember about its owner). */
  isFull(now = Date.now()): boolean {
    return this.tokens + ((now - this.at) / 1000) * this.rate >= this.burst;
  }
}
