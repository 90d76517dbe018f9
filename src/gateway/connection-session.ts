import type { Socket } from 'socket.io';
import type { DeliveredEvent } from '../contracts/realtime-publisher';
import type { Logger } from '../logging/logger';
import { gatewayCuts } from '../metrics/metrics';
import type { BookSnapshotReader } from './book-snapshot';
import type { GatewayLimits } from './limits';
import type { MarketRef } from './market-directory';

type BookDelta = Extract<DeliveredEvent, { channel: 'book' }>['payload'];

/** One book subscription: a snapshot, then deltas with seq exactly one above the last sent. */
interface BookSubscription {
  channel: 'book';
  market: MarketRef;
  decimals: number;
  /** loading: snapshot being read, deltas held; live: deltas flow; stale: deltas dropped until drain. */
  state: 'loading' | 'live' | 'stale';
  seq: number;
  pending: BookDelta[];
  lastResyncAt: number;
  resyncTimer?: NodeJS.Timeout;
}

interface PlainSubscription {
  channel: 'ticker' | 'trades' | 'user';
  market?: MarketRef;
}

export type Subscription = BookSubscription | PlainSubscription;

/** Why the gateway itself closes a connection, sent as `gateway_error` before it goes. */
export const SLOW_CONSUMER = 'SLOW_CONSUMER';

/**
 * The gateway's side of one socket: its subscriptions and every write to it, so that the
 * per-socket buffer stays bounded (limits.ts) and book sequencing is enforced per socket.
 */
export class ConnectionSession {
  readonly subscriptions = new Map<string, Subscription>();
  private closed = false;
  private staleWork = false;
  /** `buffered()` at this tick's first send (undefined between bursts). */
  private burstBase: number | undefined;
  private readonly pendingTickers = new Map<string, Record<string, unknown>>();
  private tokens: number;
  private tokensAt = Date.now();

  constructor(
    readonly socket: Socket,
    readonly wallet: string | null,
    private readonly books: BookSnapshotReader,
    private readonly limits: GatewayLimits,
    private readonly logger: Logger,
  ) {
    socket.conn.on('drain', () => this.onDrain());
    this.tokens = limits.messageBurst;
  }

  /** Token bucket over the client's messages: false when it sends faster than the limits allow. */
  takeMessageToken(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.limits.messageBurst, this.tokens + ((now - this.tokensAt) / 1000) * this.limits.messagesPerSecond);
    this.tokensAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** The WebSocket under the transport, if any (engine.io marks itself closed before it is). */
  private webSocket(): { readyState: number; terminate(): void } | undefined {
    const transport = (this.socket.conn as unknown as { transport?: { socket?: { readyState?: unknown; terminate?: unknown } } }).transport;
    const ws = transport?.socket;
    return ws && typeof ws.terminate === 'function' && typeof ws.readyState === 'number' ? (ws as { readyState: number; terminate(): void }) : undefined;
  }

  /** Whether anything of the connection is still open, down to the TCP socket. */
  isOpen(): boolean {
    const ws = this.webSocket();
    return ws ? ws.readyState !== 3 /* CLOSED */ : this.socket.conn.readyState !== 'closed';
  }

  /** Destroys the transport if the connection has not closed by itself (a peer that stopped reading). */
  terminate(): void {
    if (!this.isOpen()) return;
    const ws = this.webSocket();
    if (ws) ws.terminate();
    else this.socket.conn.close(true);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** What was queued when the current burst of sends began (this tick's first send). */
  private bufferedBeforeBurst(): number {
    if (this.burstBase === undefined) {
      this.burstBase = this.buffered();
      setImmediate(() => {
        this.burstBase = undefined;
      });
    }
    return this.burstBase;
  }

  /** Packets socket.io has queued for this socket and not yet handed to the transport. */
  buffered(): number {
    return (this.socket.conn as unknown as { writeBuffer: unknown[] }).writeBuffer.length;
  }

  addBook(key: string, market: MarketRef, decimals: number): void {
    const existing = this.subscriptions.get(key);
    if (existing?.channel === 'book') {
      // Subscribing again is how a client asks for a fresh snapshot.
      this.resync(existing, true);
      return;
    }
    const sub: BookSubscription = { channel: 'book', market, decimals, state: 'loading', seq: 0, pending: [], lastResyncAt: 0 };
    this.subscriptions.set(key, sub);
    this.resync(sub, true);
  }

  addPlain(key: string, sub: PlainSubscription): void {
    if (!this.subscriptions.has(key)) this.subscriptions.set(key, sub);
  }

  remove(key: string): void {
    const sub = this.subscriptions.get(key);
    if (sub?.channel === 'book' && sub.resyncTimer) clearTimeout(sub.resyncTimer);
    this.subscriptions.delete(key);
    this.pendingTickers.delete(key);
  }

  /** Delivers one published event routed to this session under subscription `key`. */
  deliver(key: string, event: DeliveredEvent): void {
    const sub = this.subscriptions.get(key);
    if (!sub || this.closed) return;
    switch (event.channel) {
      case 'book':
        if (sub.channel === 'book') this.onDelta(sub, event.payload);
        return;
      case 'ticker':
        if (this.buffered() >= this.limits.softBufferedPackets) {
          this.pendingTickers.set(key, event.payload);
          this.staleWork = true;
        } else {
          this.send('ticker', event.payload);
        }
        return;
      case 'trades':
        this.send('trades', event.payload);
        return;
      case 'user':
        this.send('user', event.payload);
        return;
    }
  }

  /**
   * Emits unless the socket's buffer was past the hard limit when this burst of sends began, in
   * which case the socket is cut. A push is dispatched in one synchronous loop, and after its first
   * packet the transport takes no more until its write callback runs: every event of the push
   * queues, however fast the client reads. Measured per send, a push of more than the limit for
   * one wallet (a market maker's orders cancelled at a market's close) cut a healthy connection.
   * Measured at the burst's start, a slow reader is still cut, with its queue at most one push
   * (2,000 events) past the limit.
   */
  send(name: string, payload: unknown): boolean {
    if (this.closed) return false;
    if (this.bufferedBeforeBurst() >= this.limits.maxBufferedPackets) {
      this.kill(SLOW_CONSUMER, `More than ${this.limits.maxBufferedPackets} messages queued: the connection reads too slowly`);
      return false;
    }
    this.socket.emit(name, payload);
    return true;
  }

  /** Forgets every subscription (after the gateway has unrouted them) and stops all writes. */
  close(): void {
    this.closed = true;
    for (const key of [...this.subscriptions.keys()]) this.remove(key);
  }

  private onDelta(sub: BookSubscription, delta: BookDelta): void {
    if (sub.state === 'loading') {
      // Past the cap the later deltas are dropped; the gap they leave triggers another snapshot.
      if (sub.pending.length < this.limits.maxPendingDeltas) sub.pending.push(delta);
      return;
    }
    if (sub.state === 'stale' || delta.seq <= sub.seq) return;
    if (delta.seq !== sub.seq + 1) {
      this.logger.debug({ market: sub.market, have: sub.seq, got: delta.seq }, 'book gap: resnapshot');
      this.resync(sub, false);
      return;
    }
    if (this.buffered() >= this.limits.softBufferedPackets) {
      sub.state = 'stale';
      this.staleWork = true;
      return;
    }
    if (this.send('book', { type: 'delta', condition_id: sub.market.condition_id, chain_id: sub.market.chain_id, seq: delta.seq, changes: delta.changes })) {
      sub.seq = delta.seq;
    }
  }

  /** Reads a fresh snapshot, sends it, then the held deltas newer than it. */
  private resync(sub: BookSubscription, immediate: boolean): void {
    if (sub.resyncTimer) return;
    sub.state = 'loading';
    const wait = immediate ? 0 : Math.max(0, sub.lastResyncAt + this.limits.minResyncIntervalMs - Date.now());
    sub.resyncTimer = setTimeout(() => {
      sub.resyncTimer = undefined;
      sub.lastResyncAt = Date.now();
      sub.pending = [];
      this.books
        .read(sub.market, sub.decimals)
        .then((snapshot) => {
          if (this.closed || sub.resyncTimer || !this.isCurrent(sub)) return;
          const sent = this.send('book', { type: 'snapshot', condition_id: sub.market.condition_id, chain_id: sub.market.chain_id, ...snapshot });
          if (!sent) return;
          sub.seq = snapshot.seq;
          sub.state = 'live';
          const held = sub.pending;
          sub.pending = [];
          for (const delta of held) this.onDelta(sub, delta);
        })
        .catch((error: unknown) => {
          this.logger.error({ err: error, market: sub.market }, 'book snapshot read failed; retrying');
          if (!this.closed && this.isCurrent(sub)) this.resync(sub, false);
        });
    }, wait);
  }

  private isCurrent(sub: BookSubscription): boolean {
    for (const value of this.subscriptions.values()) if (value === sub) return true;
    return false;
  }

  private onDrain(): void {
    if (!this.staleWork || this.closed || this.buffered() >= this.limits.softBufferedPackets) return;
    this.staleWork = false;
    for (const sub of this.subscriptions.values()) {
      // Not immediate: a socket that keeps falling behind costs at most one snapshot read per minResyncIntervalMs.
      if (sub.channel === 'book' && sub.state === 'stale') this.resync(sub, false);
    }
    const tickers = [...this.pendingTickers.values()];
    this.pendingTickers.clear();
    for (const ticker of tickers) this.send('ticker', ticker);
  }

  /**
   * Drops what is queued (it is what made the socket slow, or what its credentials may no longer
   * read), says why in `gateway_error`, and disconnects.
   */
  kill(code: string, message: string): void {
    if (this.closed) return;
    gatewayCuts.inc({ reason: code });
    this.logger.warn({ socket: this.socket.id, wallet: this.wallet, buffered: this.buffered(), code }, 'closing realtime connection');
    const conn = this.socket.conn as unknown as { writeBuffer: unknown[]; packetsFn: unknown[] };
    conn.writeBuffer = [];
    conn.packetsFn = [];
    this.socket.emit('gateway_error', { code, message });
    // Closed for writes now; the gateway's disconnect handler unroutes the subscriptions, then close().
    this.closed = true;
    this.socket.disconnect(true);
    // A client that never reads never drains the goodbye: destroy the transport after a grace.
    setTimeout(() => this.terminate(), this.limits.killGraceMs).unref();
  }
}
