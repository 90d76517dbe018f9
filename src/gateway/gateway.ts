import type { IncomingMessage } from 'node:http';
import type { Connection } from 'mongoose';
import type { Server, Socket } from 'socket.io';
import { isInternalEvent, type DeliveredEvent, type RealtimeEvent } from '../ports/realtime-publisher';
import { AppError, ErrorCode, isAppError, unavailableDatabase } from '../errors';
import type { Logger } from '../logging/logger';
import { validateOrThrow } from '../validation/ajv';
import { AddressLimits, type HandshakeVerdict } from './address-limits';
import { ConnectionSession } from './connection-session';
import { guardHandshakes } from './handshake-guard';
import { createEventLog } from './event-log';
import { createEventLogTailer, TailerOptions } from './event-log-tailer';
import { DEFAULT_GATEWAY_LIMITS, GatewayLimits } from './limits';
import { createMarketDirectory, MarketDirectory, MarketRef } from './market-directory';
import type { YesBook } from '../ports/yes-book';
import type { MarketFeed } from './market-feed';
import { MarketFeeds } from './market-feeds';
import { createMarketStateReader, MarketStateReader } from './market-state-reader';
import { HeapUse, startMemoryGuard } from './memory-guard';
import { NodeRegistration, registerNode } from './node-registry';
import { PushReceiver, PushReceiverOptions, startPushReceiver } from './push-receiver';
import type { Fanout } from './publisher-transport';
import { SharedMessage } from './shared-message';
import { SubscriptionMessage, validateSubscriptionMessage } from './subscription.schema';
import { KeyStateReader, startKeyWatch, type KeyWatch } from './key-watch';
import { UserEventOrder } from './user-event-order';
import { handshakeError, identityOf, wsAuthMiddleware, WsTokenConsumer } from './ws-auth';

export interface GatewayDeps {
  db: Connection;
  logger: Logger;
  /** src/auth's consumeWsToken (single use, 60 s, wallet-bound). */
  consumeWsToken: WsTokenConsumer;
  /** chain_id assumed when a market subscription omits it (default 56). */
  defaultChainId?: number;
  limits?: Partial<GatewayLimits>;
  /** Must match the workers' createRealtimePublisher fanout (default push). */
  fanout?: Fanout;
  /** push fanout: where this process's internal push endpoint listens. */
  push?: PushReceiverOptions;
  /** log fanout: poll period and gap grace. */
  tailer?: TailerOptions;
  markets?: MarketDirectory;
  /** What a market feed is seeded with (default: the store's book and ticker). */
  marketState?: MarketStateReader;
  /** The heap's use, for the memory guard (default: V8's statistics). */
  heap?: () => HeapUse;
  /** Sees every event this process receives, before delivery (order entry's cache and hold hook). */
  onEvent?: (event: RealtimeEvent) => void;
  /** src/auth's API key states: connections opened with a key end when it is revoked or regenerated (key-watch.ts). */
  keyStates?: KeyStateReader;
}

export interface GatewayStats {
  connections: number;
  subscriptions: number;
  routes: number;
  maxBufferedPackets: number;
  /** Events received (push) or log seq reached (log). */
  eventsSeen: number;
  /** Market feeds held, and the store reads their seeds made since start. */
  feeds: number;
  seedReads: number;
}

export interface Gateway {
  close(): Promise<void>;
  /** A market's book as this process keeps it for its `book` channel, for /trade quotes (undefined while cold). */
  bookFor(market: MarketRef, decimals: number): YesBook | undefined;
  /** For health, benchmarks and tests. */
  stats(): GatewayStats;
}

type Ack = (answer: { ok: true } | { ok: false; error: { code: ErrorCode; message: string } }) => void;

const marketKey = (channel: string, market: MarketRef) => `${channel}:${market.chain_id}:${market.condition_id}`;
const userKey = (wallet: string) => `user:${wallet.toLowerCase()}`;
const marketOfEvent = (event: { chain_id: number; condition_id: string }): MarketRef => ({ chain_id: event.chain_id, condition_id: event.condition_id.toLowerCase() });

/** The routing key a published event fans out under. */
function keyOf(event: DeliveredEvent): string {
  return event.channel === 'user' ? userKey(event.wallet) : marketKey(event.channel, marketOfEvent(event));
}

/**
 * Attaches the realtime gateway to the API process's socket.io server: per-address admission,
 * handshake auth with WebSocket tokens, subscribe/unsubscribe with acks served from in-memory
 * market feeds, and delivery of the events the workers push to this process (docs/realtime.md).
 */
export async function attachGateway(io: Server, deps: GatewayDeps): Promise<Gateway> {
  const limits: GatewayLimits = { ...DEFAULT_GATEWAY_LIMITS, ...deps.limits };
  const markets = deps.markets ?? createMarketDirectory(deps.db);
  const defaultChainId = deps.defaultChainId ?? 56;
  const routes = new Map<string, Set<ConnectionSession>>();
  const sessions = new Set<ConnectionSession>();
  const userEvents = new UserEventOrder();
  const addresses = new AddressLimits(limits);
  const feeds = new MarketFeeds(
    deps.marketState ?? createMarketStateReader(deps.db),
    { maxPendingDeltas: limits.maxPendingDeltas, minReseedMs: limits.minResyncIntervalMs, seedBackoffMs: limits.seedBackoffMs, maxSeedBackoffMs: limits.maxSeedBackoffMs, lingerMs: limits.feedLingerMs },
    onFeedReady,
    deps.logger,
  );
  const memory = startMemoryGuard({ fraction: limits.memoryShedFraction, everyMs: limits.memoryCheckMs }, () => sessions.size, shed, deps.heap);

  const route = (key: string, session: ConnectionSession, on: boolean) => {
    let set = routes.get(key);
    if (on) {
      if (!set) routes.set(key, (set = new Set()));
      set.add(session);
    } else if (set) {
      set.delete(session);
      if (set.size === 0) routes.delete(key);
    }
  };

  function onFeedReady(feed: MarketFeed): void {
    for (const channel of ['book', 'ticker']) {
      const key = marketKey(channel, feed.market);
      for (const session of routes.get(key) ?? []) session.feedReady(key);
    }
  }

  /** Closes the newest connections first: the oldest are the ones most likely in use. */
  function shed(count: number): void {
    const newest = [...sessions].slice(-count);
    deps.logger.warn({ shed: newest.length, connections: sessions.size }, 'heap near its limit: shedding the newest realtime connections');
    for (const session of newest) session.kill('SERVICE_DEGRADED', 'The server is short of memory; reconnect later');
  }

  function dispatch(event: RealtimeEvent): void {
    try {
      deps.onEvent?.(event);
      if (isInternalEvent(event)) return; // for order entry and the matcher client only
      // An order's or fill's event that an earlier-sent one of a later state overtook (user-event-order.ts).
      if (event.channel === 'user' && !userEvents.admit(event.payload)) return;
      const key = keyOf(event);
      if (event.channel === 'book') {
        const message = feeds.get(marketOfEvent(event))?.applyDelta(event.payload);
        if (message) for (const session of routes.get(key) ?? []) session.deliverDelta(key, event.payload.seq, message);
        return;
      }
      if (event.channel === 'ticker') feeds.get(marketOfEvent(event))?.setTicker(event.payload);
      const subscribers = routes.get(key);
      if (!subscribers) return;
      const message = new SharedMessage(event.channel, event.payload);
      for (const session of subscribers) session.deliver(key, message);
    } catch (error) {
      deps.logger.error({ err: error }, 'realtime event dispatch failed');
    }
  }

  /** Holds the subscription; returns its key, whose first message goes after the ack. */
  async function subscribe(session: ConnectionSession, message: SubscriptionMessage): Promise<string | undefined> {
    if (message.channel === 'user') {
      if (!session.wallet) throw new AppError('AUTH_MISSING', 'The user channel needs a connection authenticated with a WebSocket token');
      const key = userKey(session.wallet);
      session.addPlain(key, { channel: 'user' });
      route(key, session, true);
      return key;
    }
    const market = marketOf(message);
    const key = marketKey(message.channel, market);
    const checkRoom = () => {
      if (!session.subscriptions.has(key) && session.subscriptions.size >= limits.maxSubscriptions) {
        throw new AppError('RATE_LIMITED', `At most ${limits.maxSubscriptions} subscriptions per connection`);
      }
    };
    checkRoom();
    const found = await markets.find(market);
    if (!found) throw new AppError('NOT_FOUND', `Unknown market ${market.condition_id} on chain ${market.chain_id}`);
    if (session.isClosed) return undefined;
    checkRoom(); // again: other subscribes of this connection may have landed during the lookup
    const held = session.subscriptions.get(key);
    if (held?.channel === 'book') session.addBook(key, held.feed);
    if (held) return key;
    route(key, session, true);
    if (message.channel === 'book') session.addBook(key, feeds.acquire(market, found.decimals));
    else if (message.channel === 'ticker') session.addTicker(key, feeds.acquire(market, found.decimals));
    else session.addPlain(key, { channel: 'trades' });
    return key;
  }

  function drop(session: ConnectionSession, key: string): void {
    const sub = session.remove(key);
    route(key, session, false);
    if (sub && 'feed' in sub) feeds.release(sub.feed);
  }

  function unsubscribe(session: ConnectionSession, message: SubscriptionMessage): void {
    drop(session, message.channel === 'user' ? (session.wallet ? userKey(session.wallet) : 'user:') : marketKey(message.channel, marketOf(message)));
  }

  function marketOf(message: SubscriptionMessage): MarketRef {
    return { chain_id: message.chain_id ?? defaultChainId, condition_id: (message.condition_id ?? '').toLowerCase() };
  }

  function answer(ack: unknown, error?: unknown): void {
    if (typeof ack !== 'function') return;
    if (error === undefined) return void (ack as Ack)({ ok: true });
    const known = isAppError(error) ? error : unavailableDatabase(error);
    if (known) return void (ack as Ack)({ ok: false, error: { code: known.code, message: known.message } });
    deps.logger.error({ err: error }, 'realtime subscription failed');
    (ack as Ack)({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'Internal error' } });
  }

  /**
   * The handshake's checks, before the token is consumed or anything is held. At the HTTP request,
   * before engine.io sees it: the address's handshake rate and connection cap, refused
   * RATE_LIMITED, or cut with HTTP 429 once the address ignores its refusals (address-limits.ts,
   * handshake-guard.ts). At the namespace join: the heap, then the address's connection slot. A
   * refused transport is closed at once, after its refusal is written.
   */
  const decide = (req: IncomingMessage) => addresses.handshake(AddressLimits.keyOf(req.socket.remoteAddress));
  const guard = io.httpServer ? guardHandshakes(io.httpServer, io.path(), decide) : undefined;
  const verdicts = new WeakMap<object, HandshakeVerdict>();
  // A handshake the guard did not see (a server attached elsewhere) is judged here.
  io.engine.opts.allowRequest = (req, callback) => {
    const verdict = guard?.verdictOf(req) ?? decide(req);
    if (verdict.kind === 'cut') return callback(`RATE_LIMITED: ${verdict.message}`, false);
    verdicts.set(req, verdict);
    callback(null, true);
  };

  function admit(socket: Socket, next: (error?: Error) => void): void {
    const refuse = (code: ErrorCode, message: string) => {
      next(handshakeError(code, message));
      setImmediate(() => socket.conn.close());
    };
    const verdict = verdicts.get(socket.request);
    if (verdict?.kind === 'refuse') return refuse('RATE_LIMITED', verdict.message);
    if (memory.overloaded()) return refuse('SERVICE_DEGRADED', 'The server is short of memory; retry later');
    const address = AddressLimits.keyOf(socket.request.socket.remoteAddress);
    const refusal = addresses.hold(address);
    if (refusal) return refuse('RATE_LIMITED', refusal);
    socket.conn.once('close', () => addresses.release(address));
    next();
  }

  function onConnection(socket: Socket): void {
    const session = new ConnectionSession(socket, identityOf(socket).wallet, limits, deps.logger);
    sessions.add(session);
    // Checked before the message is parsed or queued: over the rate, the connection is closed.
    const limited = (ack: unknown) => {
      if (session.takeMessageToken()) return false;
      const message = `At most ${limits.messagesPerSecond} subscribe/unsubscribe messages per second (burst ${limits.messageBurst})`;
      answer(ack, new AppError('RATE_LIMITED', message));
      session.kill('RATE_LIMITED', message, true);
      return true;
    };
    socket.on('subscribe', (raw: unknown, ack: unknown) => {
      if (limited(ack)) return;
      // Ack first, first message after (a book copy, the latest ticker).
      Promise.resolve()
        .then(() => subscribe(session, validateOrThrow(validateSubscriptionMessage, raw, 'subscribe message')))
        .then((key) => {
          answer(ack);
          if (key) session.start(key);
        }, (error: unknown) => answer(ack, error));
    });
    socket.on('unsubscribe', (raw: unknown, ack: unknown) => {
      if (limited(ack)) return;
      try {
        unsubscribe(session, validateOrThrow(validateSubscriptionMessage, raw, 'unsubscribe message'));
        answer(ack);
      } catch (error) {
        answer(ack, error);
      }
    });
    const end = () => {
      if (!sessions.delete(session)) return;
      for (const key of [...session.subscriptions.keys()]) drop(session, key);
      session.close();
    };
    socket.on('disconnect', end);
    // Closed between the handshake and here: nothing will fire 'disconnect' again.
    if (socket.disconnected) end();
  }

  io.use(admit);
  io.use(wsAuthMiddleware(deps.consumeWsToken, deps.logger));
  io.on('connection', onConnection);
  const source = await startEventSource(deps, dispatch);
  const keyWatch: KeyWatch = startKeyWatch(() => [...sessions].flatMap((session) => {
    const { key, authExpiresAt } = identityOf(session.socket);
    const end = (expired?: boolean) => (expired
      ? session.kill('AUTH_INVALID', 'The JWT this connection was opened with expired')
      : session.kill('AUTH_REVOKED', 'The API key this connection was opened with was revoked or its secret regenerated'));
    return key || authExpiresAt ? [{ key, authExpiresAt, end }] : [];
  }), deps.keyStates, limits.keyCheckMs, deps.logger);

  return {
    async close() {
      io.off('connection', onConnection);
      memory.stop();
      addresses.stop();
      await keyWatch.stop();
      await source.close();
      // Say goodbye to every socket; peers that stopped reading would hold shutdown for 30 s (ws close timeout).
      const open = [...sessions];
      for (const session of open) session.socket.disconnect(true);
      const until = Date.now() + limits.shutdownGraceMs;
      while (open.some((s) => s.isOpen()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      for (const session of open) session.terminate();
      feeds.close();
    },
    bookFor: (market, decimals) => feeds.bookFor(market, decimals),
    stats: () => ({
      connections: sessions.size,
      subscriptions: [...sessions].reduce((n, s) => n + s.subscriptions.size, 0),
      routes: [...routes.values()].reduce((n, set) => n + set.size, 0),
      maxBufferedPackets: [...sessions].reduce((n, s) => Math.max(n, s.buffered()), 0),
      eventsSeen: source.position(),
      feeds: feeds.size,
      seedReads: feeds.seedReads,
    }),
  };
}

interface EventSource {
  close(): Promise<void>;
  position(): number;
}

/** Where this process receives the workers' events from (push endpoint or polled log). */
async function startEventSource(deps: GatewayDeps, dispatch: (event: RealtimeEvent) => void): Promise<EventSource> {
  if ((deps.fanout ?? 'push') === 'log') {
    const tailer = createEventLogTailer(createEventLog(deps.db), ({ event }) => dispatch(event), deps.logger, deps.tailer);
    await tailer.start();
    return { close: () => tailer.stop(), position: () => tailer.position() };
  }
  let received = 0;
  let registration: NodeRegistration | undefined;
  const receiver: PushReceiver = await startPushReceiver(
    () => registration?.secret ?? '',
    (events) => {
      received += events.length;
      for (const event of events) dispatch(event);
    },
    deps.logger,
    deps.push,
  );
  try {
    registration = await registerNode(deps.db, receiver.url, deps.logger);
  } catch (error) {
    await receiver.close();
    throw error;
  }
  return {
    async close() {
      await registration?.stop();
      await receiver.close();
    },
    position: () => received,
  };
}
