import type { Connection } from 'mongoose';
import type { Server, Socket } from 'socket.io';
import { isInternalEvent, type DeliveredEvent, type RealtimeEvent } from '../contracts/realtime-publisher';
import { AppError, ErrorCode, isAppError, unavailableDatabase } from '../errors';
import type { Logger } from '../logging/logger';
import { validateOrThrow } from '../validation/ajv';
import { BookSnapshotReader, createBookSnapshotReader } from './book-snapshot';
import { ConnectionSession } from './connection-session';
import { createEventLog } from './event-log';
import { createEventLogTailer, TailerOptions } from './event-log-tailer';
import { DEFAULT_GATEWAY_LIMITS, GatewayLimits } from './limits';
import { createMarketDirectory, MarketDirectory, MarketRef } from './market-directory';
import { NodeRegistration, registerNode } from './node-registry';
import { PushReceiver, PushReceiverOptions, startPushReceiver } from './push-receiver';
import type { Fanout } from './realtime-publisher';
import { SubscriptionMessage, validateSubscriptionMessage } from './subscription.schema';
import { KeyStateReader, startKeyWatch, type KeyWatch } from './key-watch';
import { UserEventOrder } from './user-event-order';
import { identityOf, wsAuthMiddleware, WsTokenConsumer } from './ws-auth';

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
  books?: BookSnapshotReader;
  /** Sees every event this process receives, before delivery (order entry's cache and hold hook). */
  onEvent?: (event: RealtimeEvent) => void;
  /** src/auth's API key states: connections opened with a key end when it is revoked or regenerated (key-watch.ts). */
  keyStates?: KeyStateReader;
}

export interface Gateway {
  close(): Promise<void>;
    /** For health and tests: live sessions, their subscriptions, the largest per-socket queue, events received (push) or log seq reached (log). */
  stats(): { connections: number; subscriptions: number; routes: number; maxBufferedPackets: number; eventsSeen: number };
}

type Ack = (answer: { ok: true } | { ok: false; error: { code: ErrorCode; message: string } }) => void;

const marketKey = (channel: string, market: MarketRef) => `${channel}:${market.chain_id}:${market.condition_id}`;
const userKey = (wallet: string) => `user:${wallet.toLowerCase()}`;

/** The routing key a published event fans out under. */
function keyOf(event: DeliveredEvent): string {
  return event.channel === 'user' ? userKey(event.wallet) : marketKey(event.channel, { chain_id: event.chain_id, condition_id: event.condition_id.toLowerCase() });
}

/**
 * Attaches the realtime gateway to the API process's socket.io server: handshake auth with
 * WebSocket tokens, subscribe/unsubscribe with acks, and delivery of the events every worker
 * publishes to the MongoDB event log, which this process tails (docs/realtime.md).
 */
export async function attachGateway(io: Server, deps: GatewayDeps): Promise<Gateway> {
  const limits: GatewayLimits = { ...DEFAULT_GATEWAY_LIMITS, ...deps.limits };
  const markets = deps.markets ?? createMarketDirectory(deps.db);
  const books = deps.books ?? createBookSnapshotReader(deps.db);
  const defaultChainId = deps.defaultChainId ?? 56;
  const routes = new Map<string, Set<ConnectionSession>>();
  const sessions = new Set<ConnectionSession>();
  const userEvents = new UserEventOrder();

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

  function dispatch(event: RealtimeEvent): void {
    try {
      deps.onEvent?.(event);
      if (isInternalEvent(event)) return; // for order entry and the matcher client only
      // An order's or fill's event that an earlier-sent one of a later state overtook (user-event-order.ts).
      if (event.channel === 'user' && !userEvents.admit(event.payload)) return;
      const key = keyOf(event);
      for (const session of routes.get(key) ?? []) session.deliver(key, event);
    } catch (error) {
      deps.logger.error({ err: error }, 'realtime event dispatch failed');
    }
  }

  async function subscribe(session: ConnectionSession, message: SubscriptionMessage): Promise<void> {
    if (message.channel === 'user') {
      if (!session.wallet) throw new AppError('AUTH_MISSING', 'The user channel needs a connection authenticated with a WebSocket token');
      const key = userKey(session.wallet);
      session.addPlain(key, { channel: 'user' });
      route(key, session, true);
      return;
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
    if (session.isClosed) return;
    checkRoom(); // again: other subscribes of this connection may have landed during the lookup
    route(key, session, true);
    if (message.channel === 'book') session.addBook(key, market, found.decimals);
    else session.addPlain(key, { channel: message.channel, market });
  }

  function unsubscribe(session: ConnectionSession, message: SubscriptionMessage): void {
    const key = message.channel === 'user' ? (session.wallet ? userKey(session.wallet) : 'user:') : marketKey(message.channel, marketOf(message));
    session.remove(key);
    route(key, session, false);
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

  function onConnection(socket: Socket): void {
    const session = new ConnectionSession(socket, identityOf(socket).wallet, books, limits, deps.logger);
    sessions.add(session);
    const limited = (ack: unknown) => {
      if (session.takeMessageToken()) return false;
      answer(ack, new AppError('RATE_LIMITED', `At most ${limits.messagesPerSecond} subscribe/unsubscribe messages per second`));
      return true;
    };
    socket.on('subscribe', (raw: unknown, ack: unknown) => {
      if (limited(ack)) return;
      // Ack first, snapshot after: subscribe() registers the book, whose snapshot is read async.
      Promise.resolve()
        .then(() => subscribe(session, validateOrThrow(validateSubscriptionMessage, raw, 'subscribe message')))
        .then(() => answer(ack), (error: unknown) => answer(ack, error));
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
    socket.on('disconnect', () => {
      for (const key of session.subscriptions.keys()) route(key, session, false);
      session.close();
      sessions.delete(session);
    });
    if (socket.disconnected) {
      // Closed between the handshake and here: nothing will fire 'disconnect' again.
      session.close();
      sessions.delete(session);
    }
  }

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
      await keyWatch.stop();
      await source.close();
      // Say goodbye to every socket; peers that stopped reading would hold shutdown for 30 s (ws close timeout).
      const open = [...sessions];
      for (const session of open) session.socket.disconnect(true);
      const until = Date.now() + limits.shutdownGraceMs;
      while (open.some((s) => s.isOpen()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      for (const session of open) session.terminate();
    },
    stats: () => ({
      connections: sessions.size,
      subscriptions: [...sessions].reduce((n, s) => n + s.subscriptions.size, 0),
      routes: [...routes.values()].reduce((n, set) => n + set.size, 0),
      maxBufferedPackets: [...sessions].reduce((n, s) => Math.max(n, s.buffered()), 0),
      eventsSeen: source.position(),
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
