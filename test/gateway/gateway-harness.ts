import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { io as connectClient, Socket as ClientSocket } from 'socket.io-client';
import { startApiServer, RunningApi, WS_PATH } from '../../src/api/server';
import { consumeWsToken, issueWsToken, WsTokenDeps } from '../../src/auth';
import type { RealtimeEvent, RealtimePublisher } from '../../src/ports/realtime-publisher';
import { createBookLevelModel, createBookStateModel, createMarketModel, createWsTokenModel, createWsTokenUseModel } from '../../src/db/models';
import { attachGateway, createRealtimePublisher, Fanout, Gateway, GatewayDeps, GATEWAY_SOCKET_OPTIONS } from '../../src/gateway';
import { createLogger } from '../../src/logging/logger';
import { formatCanonical } from '../../src/money';
import type { Router } from 'express';
import type { ServerOptions } from 'socket.io';


export const CHAIN_ID = 56;
export const DECIMALS = 6;
export const PEPPER = 'test-pepper-0123456789abcdef0123456789';
export const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export const wallet = () => `0x${randomBytes(20).toString('hex')}`;
export const conditionId = () => `0x${randomBytes(32).toString('hex')}`;

export function wsTokenDeps(db: Connection, now?: () => Date): WsTokenDeps {
  return { model: createWsTokenModel(db), uses: createWsTokenUseModel(db), pepper: PEPPER, now };
}

export interface GatewayServer {
  api: RunningApi;
  gateway: Gateway;
  close(): Promise<void>;
}

/** The real API server on port 0 with the real gateway, tokens checked by src/auth against `db`. */
export async function startGatewayServer(
  db: Connection,
  options: {
    limits?: GatewayDeps['limits'];
    socketOptions?: Partial<ServerOptions>;
    fanout?: Fanout;
    markets?: GatewayDeps['markets'];
    marketState?: GatewayDeps['marketState'];
    heap?: GatewayDeps['heap'];
    v1Routers?: Router[];
  } = {},
): Promise<GatewayServer> {
  let gateway: Gateway | undefined;
  const api = await startApiServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    readiness: [],
    v1Routers: options.v1Routers,
    socketOptions: { ...GATEWAY_SOCKET_OPTIONS, ...options.socketOptions },
    attachGateway: async (io) => {
      gateway = await attachGateway(io, {
        db,
        logger,
        consumeWsToken: (token) => consumeWsToken(wsTokenDeps(db), token),
        limits: options.limits,
        fanout: options.fanout,
        markets: options.markets,
        marketState: options.marketState,
        heap: options.heap,
        tailer: { pollIntervalMs: 10 },
      });
      return gateway;
    },
  });
  let closing: Promise<void> | undefined;
  // Idempotent: a test may close its server itself before the file's clean-up does.
  return { api, gateway: gateway as Gateway, close: () => (closing ??= api.close()) };
}

export async function seedMarket(db: Connection, condition_id = conditionId()): Promise<string> {
  const at = new Date();
  await createMarketModel(db).create({
    chain_id: CHAIN_ID, condition_id, question_id: null, question: 'Will it rain?', kind: 'CLOB', status: 'OPEN',
    resolution_outcome: null, fee_rate_bps: 0, summary: { en: 's' }, rules: { en: 'r' },
    tokens: [{ outcome: 1, token_id: '1', decimals: DECIMALS }, { outcome: 0, token_id: '2', decimals: DECIMALS }],
    collateral_token: `0x${'1'.repeat(40)}`, ctf_exchange_address: `0x${'2'.repeat(40)}`, conditional_tokens_address: `0x${'3'.repeat(40)}`,
    end_date: new Date(at.getTime() + 86_400_000), created_at: at, updated_at: at,
  });
  return condition_id;
}

export type Side = 'bid' | 'ask';
export interface LevelChange {
  side: Side;
  ticks: number;
  units: bigint;
}

/**
 * Plays the matcher for one market: writes book levels and the book seq as market.activities
 * does, then publishes the delta through the real publisher.
 */
export class BookWriter {
  seq = 0;
  readonly book = { bid: new Map<number, bigint>(), ask: new Map<number, bigint>() };

  constructor(
    private readonly db: Connection,
    private readonly publisher: RealtimePublisher,
    readonly condition_id: string,
  ) {}

  /** Applies one book step: stores it, and publishes its delta unless `publish` is false. */
  async step(changes: LevelChange[], publish = true): Promise<RealtimeEvent> {
    this.seq += 1;
    const levels = createBookLevelModel(this.db);
    const market = { chain_id: CHAIN_ID, condition_id: this.condition_id };
    for (const c of changes) {
      const key = { ...market, side: c.side === 'bid' ? ('BID' as const) : ('ASK' as const), ticks: c.ticks };
      if (c.units === 0n) {
        this.book[c.side].delete(c.ticks);
        await levels.deleteOne(key);
      } else {
        this.book[c.side].set(c.ticks, c.units);
        await levels.updateOne(key, { $set: { price: priceOf(c.ticks), remaining: c.units.toString(), seq: this.seq } }, { upsert: true });
      }
    }
    await createBookStateModel(this.db).updateOne(market, { $max: { seq: this.seq }, $set: { updated_at: new Date() } }, { upsert: true });
    const event: RealtimeEvent = {
      channel: 'book', ...market,
      payload: { type: 'delta', seq: this.seq, changes: changes.map((c) => ({ side: c.side, price: priceOf(c.ticks), remainingSize: formatCanonical(c.units, DECIMALS) })) },
    };
    if (publish) await this.publisher.publish([event]);
    return event;
  }

  /** The stored book in the wire shape (best first). */
  expected(): { bids: { price: string; remainingSize: string }[]; asks: { price: string; remainingSize: string }[] } {
    const side = (s: Side, dir: number) =>
      [...this.book[s].entries()].sort((a, b) => dir * (a[0] - b[0])).map(([t, u]) => ({ price: priceOf(t), remainingSize: formatCanonical(u, DECIMALS) }));
    return { bids: side('bid', -1), asks: side('ask', 1) };
  }
}

export const priceOf = (ticks: number) => formatCanonical(BigInt(ticks), 2);
export const newPublisher = (db: Connection, fanout?: Fanout) => createRealtimePublisher({ db, logger, fanout });

/** A socket.io client on the gateway; `auth.token` unless `tokenIn` says query. */
export function client(api: RunningApi, token?: string, tokenIn: 'auth' | 'query' = 'auth'): ClientSocket {
  return connectClient(api.url, {
    path: WS_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(token === undefined ? {} : tokenIn === 'auth' ? { auth: { token } } : { query: { token } }),
  });
}

export function connected(socket: ClientSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

export function refused(socket: ClientSocket): Promise<{ message: string; data?: { code?: string } }> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected, expected a refusal')));
    socket.once('connect_error', (error: Error & { data?: { code?: string } }) => resolve(error));
  });
}

export type AckAnswer = { ok: true } | { ok: false; error: { code: string; message: string } };

export function request(socket: ClientSocket, event: 'subscribe' | 'unsubscribe', body: unknown): Promise<AckAnswer> {
  return socket.timeout(5_000).emitWithAck(event, body) as Promise<AckAnswer>;
}

/** Polls `check` until it is true (or throws after `ms`). */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5_000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Rebuilds a book from `book` events the way a client should, recording any sequencing fault. */
export class ClientBook {
  seq = -1;
  snapshots = 0;
  deltas = 0;
  faults: string[] = [];
  readonly book = { bid: new Map<string, string>(), ask: new Map<string, string>() };

  constructor(socket: ClientSocket, readonly condition_id: string) {
    socket.on('book', (message: { type: string; seq: number; condition_id: string; bids?: Level[]; asks?: Level[]; changes?: { side: Side; price: string; remainingSize: string }[] }) => {
      if (message.condition_id !== condition_id) return;
      if (message.type === 'snapshot') {
        this.snapshots += 1;
        this.seq = message.seq;
        this.book.bid = new Map((message.bids ?? []).map((l) => [l.price, l.remainingSize]));
        this.book.ask = new Map((message.asks ?? []).map((l) => [l.price, l.remainingSize]));
        return;
      }
      this.deltas += 1;
      if (message.seq !== this.seq + 1) this.faults.push(`delta ${message.seq} after ${this.seq}`);
      this.seq = message.seq;
      for (const c of message.changes ?? []) {
        if (c.remainingSize === '0') this.book[c.side].delete(c.price);
        else this.book[c.side].set(c.price, c.remainingSize);
      }
    });
  }

  view(): { bids: Level[]; asks: Level[] } {
    const side = (s: Side, dir: number) =>
      [...this.book[s].entries()].sort((a, b) => dir * (Number(a[0]) - Number(b[0]))).map(([price, remainingSize]) => ({ price, remainingSize }));
    return { bids: side('bid', -1), asks: side('ask', 1) };
  }
}

type Level = { price: string; remainingSize: string };

export { issueWsToken };

/**
 * Servers and client sockets a test file opens, each started with its own options; `cleanUp`
 * (afterEach) disconnects the sockets and closes the servers.
 */
export function serversPerTest(db: () => Connection) {
  const servers: GatewayServer[] = [];
  const sockets: ClientSocket[] = [];
  return {
    async start(options: Parameters<typeof startGatewayServer>[1]): Promise<GatewayServer> {
      const server = await startGatewayServer(db(), options);
      servers.push(server);
      return server;
    },
    /** A client socket on `server`, not yet connected. */
    attempt(server: GatewayServer, token?: string): ClientSocket {
      const socket = client(server.api, token);
      sockets.push(socket);
      return socket;
    },
    async cleanUp(): Promise<void> {
      for (const s of sockets.splice(0)) s.disconnect();
      for (const s of servers.splice(0)) await s.close();
    },
  };
}
