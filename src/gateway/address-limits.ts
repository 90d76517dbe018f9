import { ipKeyGenerator } from 'express-rate-limit';
import { TokenBucket } from './token-bucket';

export interface AddressLimitSettings {
  maxConnectionsPerAddress: number;
  handshakesPerSecond: number;
  handshakeBurst: number;
}

/** What the transport layer does with one handshake of an address. */
export type HandshakeVerdict =
  | { kind: 'pass' }
  /** Upgrade, then refuse with connect_error RATE_LIMITED (the client learns why). */
  | { kind: 'refuse'; message: string }
  /** Answer HTTP 429 before any upgrade: the address ignores its refusals, it gets the cheapest answer. */
  | { kind: 'cut'; message: string };

/**
 * Per client address: open connections, a handshake token bucket, and a bucket of refusals of the
 * same size. A handshake over the rate or the connection cap is refused with connect_error
 * RATE_LIMITED while the address has refusals left; past them (a client that does not back off)
 * it is cut at the HTTP request (handshake-guard.ts), before any WebSocket, engine or socket.io
 * state exists. An IPv6 address counts by its /56, as REST's limits do.
 */
export class AddressLimits {
  private readonly open = new Map<string, number>();
  private readonly handshakes = new Map<string, TokenBucket>();
  private readonly refusals = new Map<string, TokenBucket>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly settings: AddressLimitSettings) {
    // Forget addresses whose buckets are full again: the maps hold only recent handshakers.
    this.sweeper = setInterval(() => {
      for (const map of [this.handshakes, this.refusals]) for (const [key, bucket] of map) if (bucket.isFull()) map.delete(key);
    }, 10_000).unref();
  }

  /** An IPv4 address is its own key; only IPv6 needs the /56 (whose parse is the costly part). */
  static keyOf(address: string | undefined): string {
    return address && !address.includes(':') ? address : ipKeyGenerator(address || 'unknown');
  }

  /** At the transport's handshake request: takes a handshake token (and a refusal token when refused). */
  handshake(key: string): HandshakeVerdict {
    const why = !this.bucket(this.handshakes, key).take()
      ? `At most ${this.settings.handshakesPerSecond} handshakes per second from one address`
      : (this.open.get(key) ?? 0) >= this.settings.maxConnectionsPerAddress
        ? `At most ${this.settings.maxConnectionsPerAddress} connections from one address`
        : undefined;
    if (!why) return { kind: 'pass' };
    return this.bucket(this.refusals, key).take() ? { kind: 'refuse', message: why } : { kind: 'cut', message: why };
  }

  /** At the namespace join: holds one of the address's connection slots, or says why not (until `release`). */
  hold(key: string): string | undefined {
    const open = this.open.get(key) ?? 0;
    if (open >= this.settings.maxConnectionsPerAddress) return `At most ${this.settings.maxConnectionsPerAddress} connections from one address`;
    this.open.set(key, open + 1);
    return undefined;
  }

  release(key: string): void {
    const open = (this.open.get(key) ?? 1) - 1;
    if (open > 0) this.open.set(key, open);
    else this.open.delete(key);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  private bucket(map: Map<string, TokenBucket>, key: string): TokenBucket {
    let bucket = map.get(key);
    if (!bucket) map.set(key, (bucket = new TokenBucket(this.settings.handshakesPerSecond, this.settings.handshakeBurst)));
    return bucket;
  }
}
