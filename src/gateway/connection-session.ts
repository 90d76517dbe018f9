import type { Socket } from 'socket.io';
import type { Logger } from '../logging/logger';
import { gatewayCuts } from '../metrics/metrics';
import type { GatewayLimits } from './limits';
import type { MarketFeed } from './market-feed';
import { SharedMessage } from './shared-message';
import { TokenBucket } from './token-bucket';

/**
 * One book subscription: a copy of its market feed's book, then the feed's deltas with seq
 * exactly one above the last sent. waiting: no snapshot sent yet (the feed is seeding); live:
 * deltas flow; stale: deltas dropped until the socket drains, then a fresh copy.
 */
interface BookSubscription {
  channel: 'book';
  feed: MarketFeed;
  state: 'waiting' | 'live' | 'stale';
  seq: number;
  lastSnapshotAt: number;
  resyncTimer?: NodeJS.Timeout;
}

/** A ticker subscription gets the feed's latest ticker once (`primed`), then every published one. */
interface TickerSubscription {
  channel: 'ticker';
  feed: MarketFeed;
  primed: boolean;
}

interface PlainSubscription {
  channel: 'trades' | 'user';
}

export type Subscription = BookSubscription | TickerSubscription | PlainSubscription;

/** Why the gateway itself closes a connection, sent as `gateway_error` before it goes. */
export const SLOW_CONSUMER = 'SLOW_CONSUMER';

/**
 * The gateway's side of one socket: its subscriptions and every write to it, so that the
 * per-socket buffer stays bounded (limits.ts) and book sequencing is enforced per socket.
 */
export class ConnectionSession {
  readonly subscriptions = new Map<string, Subscription>();
  readonly openedAt = Date.now();
  private closed = false;
  private staleWork = false;
  /** `buffered()` at this tick's first send (undefined between bursts). */
  private burstBase: number | undefined;
  private readonly pendingTickers = new Map<string, SharedMessage>();
  private readonly messages: TokenBucket;

  constructor(
    readonly socket: Socket,
    readonly wallet: string | null,
    private readonly limits: GatewayLimits,
    private readonly logger: Logger,
  ) {
    socket.conn.on('drain', () => this.onDrain());
    this.messages = new TokenBucket(limits.messagesPerSecond, limits.messageBurst);
  }

  /** Token bucket over the client's messages: false when it sends faster than the limits allow. */
  takeMessageToken(): boolean {
    return this.messages.take();
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

  /** Holds a book subscription on `feed`; `startBook` (after the ack) sends its first copy. */
  addBook(key: string, feed: MarketFeed): void {
    const existing = this.subscriptions.get(key);
    if (existing?.channel === 'book') {
      // Subscribing again is how a client asks for a fresh snapshot.
      existing.state = 'waiting';
      return;
    }
    this.subscriptions.set(key, { channel: 'book', feed, state: 'waiting', seq: 0, lastSnapshotAt: 0 });
  }

  addTicker(key: string, feed: MarketFeed): void {
    if (!this.subscriptions.has(key)) this.subscriptions.set(key, { channel: 'ticker', feed, primed: false });
  }

  addPlain(key: string, sub: PlainSubscription): void {
    if (!this.subscriptions.has(key)) this.subscriptions.set(key, sub);
  }

  /** Sends what a new subscription starts with (a book copy, the latest ticker) if its feed has it. */
  start(key: string): void {
    const sub = this.subscriptions.get(key);
    if (!sub || this.closed) return;
    if (sub.channel === 'book' && sub.state === 'waiting') this.sendCopy(sub);
    if (sub.channel === 'ticker') this.primeTicker(sub);
  }

  /** Its market feed was (re-)seeded: a subscription not at the feed's seq gets a fresh copy. */
  feedReady(key: string): void {
    const sub = this.subscriptions.get(key);
    if (!sub || this.closed) return;
    if (sub.channel === 'book' && (sub.state === 'waiting' || (sub.state === 'live' && sub.seq !== sub.feed.seq))) this.sendCopy(sub);
    if (sub.channel === 'ticker') this.primeTicker(sub);
  }

  /** Forgets one subscription; returns it so its feed can be released. */
  remove(key: string): Subscription | undefined {
    const sub = this.subscriptions.get(key);
    if (sub?.channel === 'book') clearTimeout(sub.resyncTimer);
    this.subscriptions.delete(key);
    this.pendingTickers.delete(key);
    return sub;
  }

  /** Delivers one book delta the feed accepted (seq follows the feed's book). */
  deliverDelta(key: string, seq: number, message: SharedMessage): void {
    const sub = this.subscriptions.get(key);
    if (sub?.channel !== 'book' || this.closed || sub.state !== 'live' || seq <= sub.seq) return;
    if (seq !== sub.seq + 1) {
      // The feed holds this delta already: a copy of it closes this socket's gap.
      this.sendCopy(sub);
      return;
    }
    if (this.buffered() >= this.limits.softBufferedPackets) {
      sub.state = 'stale';
      this.staleWork = true;
      return;
    }
    if (this.send(message)) sub.seq = seq;
  }

  /** Delivers one ticker, trade or user event routed to this session under `key`. */
  deliver(key: string, message: SharedMessage): void {
    const sub = this.subscriptions.get(key);
    if (!sub || this.closed) return;
    if (sub.channel === 'ticker') {
      sub.primed = true;
      if (this.buffered() >= this.limits.softBufferedPackets) {
        this.pendingTickers.set(key, message);
        this.staleWork = true;
        return;
      }
    }
    this.send(message);
  }

  /**
   * Writes unless the socket's buffer was past the hard limit when this burst of sends began, in
   * which case the socket is cut. A push is dispatched in one synchronous loop, and after its first
   * packet the transport takes no more until its write callback runs: every event of the push
   * queues, however fast the client reads. Measured at the burst's start, a slow reader is still
   * cut, with its queue at most one push (2,000 events) past the limit, and a healthy one is not
   * cut by one large push for its wallet.
   */
  send(message: SharedMessage): boolean {
    if (this.closed) return false;
    if (this.bufferedBeforeBurst() >= this.limits.maxBufferedPackets) {
      this.kill(SLOW_CONSUMER, `More than ${this.limits.maxBufferedPackets} messages queued: the connection reads too slowly`);
      return false;
    }
    message.writeTo(this.socket);
    return true;
  }

  /** Stops all writes; the gateway has already dropped the subscriptions. */
  close(): void {
    this.closed = true;
    for (const key of [...this.subscriptions.keys()]) this.remove(key);
  }

  private primeTicker(sub: TickerSubscription): void {
    if (sub.primed || !sub.feed.ticker) return;
    sub.primed = true;
    this.send(new SharedMessage('ticker', sub.feed.ticker));
  }

  /** Sends the feed's current book (a shared copy) and continues from its seq; waits while it seeds. */
  private sendCopy(sub: BookSubscription): void {
    clearTimeout(sub.resyncTimer);
    sub.resyncTimer = undefined;
    if (!sub.feed.isLive) {
      sub.state = 'waiting';
      return;
    }
    sub.lastSnapshotAt = Date.now();
    if (!this.send(sub.feed.snapshotMessage())) return;
    sub.seq = sub.feed.seq;
    sub.state = 'live';
  }

  private onDrain(): void {
    if (!this.staleWork || this.closed || this.buffered() >= this.limits.softBufferedPackets) return;
    this.staleWork = false;
    for (const sub of this.subscriptions.values()) {
      if (sub.channel !== 'book' || sub.state !== 'stale' || sub.resyncTimer) continue;
      // A socket that keeps falling behind gets at most one copy of a book per minResyncIntervalMs.
      const wait = Math.max(0, sub.lastSnapshotAt + this.limits.minResyncIntervalMs - Date.now());
      sub.resyncTimer = setTimeout(() => {
        sub.resyncTimer = undefined;
        if (sub.state === 'stale') this.sendCopy(sub);
      }, wait);
    }
    const tickers = [...this.pendingTickers.values()];
    this.pendingTickers.clear();
    for (const ticker of tickers) this.send(ticker);
  }

  /**
   * Drops what is queued (it is what made the socket slow, what its credentials may no longer
   * read, or memory being shed) unless `keepQueued` (a client told why its message was refused),
   * says why in `gateway_error`, and disconnects.
   */
  kill(code: string, message: string, keepQueued = false): void {
    if (this.closed) return;
    gatewayCuts.inc({ reason: code });
    // A client over its message rate is counted, not logged: one line per refusal is work a flood buys.
    if (code !== 'RATE_LIMITED') this.logger.warn({ socket: this.socket.id, wallet: this.wallet, buffered: this.buffered(), code }, 'closing realtime connection');
    if (!keepQueued) {
      const conn = this.socket.conn as unknown as { writeBuffer: unknown[]; packetsFn: unknown[] };
      conn.writeBuffer = [];
      conn.packetsFn = [];
    }
    this.socket.emit('gateway_error', { code, message });
    // Closed for writes now; the gateway's disconnect handler unroutes the subscriptions, then close().
    this.closed = true;
    this.socket.disconnect(true);
    // A client that never reads never drains the goodbye: destroy the transport after a grace.
    setTimeout(() => this.terminate(), this.limits.killGraceMs).unref();
  }
}
