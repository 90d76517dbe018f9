import { MongoClient } from 'mongodb';
import type { Socket as ClientSocket } from 'socket.io-client';
import { useTestDatabase } from '../helpers/test-database';
import {
  client, connected, GatewayServer, issueWsToken, refused, request, seedMarket, startGatewayServer, wallet, wsTokenDeps, conditionId, CHAIN_ID,
} from './gateway-harness';

describe('realtime gateway: handshake tokens and channel rules', () => {
  const { db } = useTestDatabase('gw_hs');
  let server: GatewayServer;
  let market: string;
  const sockets: ClientSocket[] = [];
  const open = (token?: string, tokenIn?: 'auth' | 'query') => {
    const socket = client(server.api, token, tokenIn);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    server = await startGatewayServer(db(), { limits: { maxSubscriptions: 3 } });
    market = await seedMarket(db());
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('when a fresh token is given in auth.token, then the connection is bound to its wallet and may use the user channel', async () => {
    const { token } = await issueWsToken(wsTokenDeps(db()), wallet());
    const socket = open(token);
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'user' })).toEqual({ ok: true });
  });

  it('when a fresh token is given in the query, then it is accepted too', async () => {
    const { token } = await issueWsToken(wsTokenDeps(db()), wallet());
    const socket = open(token, 'query');
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'user' })).toEqual({ ok: true });
  });

  it('when a token is used a second time, then the second connection is refused with AUTH_INVALID', async () => {
    const { token } = await issueWsToken(wsTokenDeps(db()), wallet());
    await connected(open(token));
    const error = await refused(open(token));
    expect(error.data?.code).toBe('AUTH_INVALID');
  });

  it('when a token has expired, then the connection is refused with AUTH_INVALID', async () => {
    const issuedAt = new Date(Date.now() - 61_000);
    const { token } = await issueWsToken(wsTokenDeps(db(), () => issuedAt), wallet());
    const error = await refused(open(token));
    expect(error.data?.code).toBe('AUTH_INVALID');
  });

  it('when a token is forged, then the connection is refused with AUTH_INVALID', async () => {
    const error = await refused(open('forged-token-that-was-never-issued'));
    expect(error.data).toMatchObject({ code: 'AUTH_INVALID' });
    const empty = await refused(open(''));
    expect(empty.data?.code).toBe('AUTH_INVALID');
  });

  it('when no token is given, then public channels work and the user channel answers AUTH_MISSING', async () => {
    const socket = open();
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'ticker', condition_id: market, chain_id: CHAIN_ID })).toEqual({ ok: true });
    const answer = await request(socket, 'subscribe', { channel: 'user' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'AUTH_MISSING' } });
  });

  it('when the channel is unknown or the payload malformed, then the ack is VALIDATION_ERROR', async () => {
    const socket = open();
    await connected(socket);
    for (const body of [
      { channel: 'orders', condition_id: market },
      'book',
      null,
      { channel: 'book' },
      { channel: 'book', condition_id: 'not-a-condition' },
      { channel: 'book', condition_id: market, chain_id: '56' },
      { channel: 'book', condition_id: market, extra: 1 },
      { channel: 'user', condition_id: market },
    ]) {
      const answer = await request(socket, 'subscribe', body);
      expect(answer).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    }
    expect(await request(socket, 'unsubscribe', { channel: 'nope' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('when the market is unknown (or on another chain), then the ack is NOT_FOUND', async () => {
    const socket = open();
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'book', condition_id: conditionId(), chain_id: CHAIN_ID })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await request(socket, 'subscribe', { channel: 'trades', condition_id: market, chain_id: 97 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('when the database does not answer the market lookup, then the ack is SERVICE_DEGRADED (retryable), not INTERNAL_ERROR', async () => {
    // A real driver error: nothing listens on port 1.
    const unreachable = new MongoClient('mongodb://127.0.0.1:1', { serverSelectionTimeoutMS: 200 });
    const down = await startGatewayServer(db(), { markets: { find: () => unreachable.db('x').collection('markets').findOne({}).then(() => null) } });
    try {
      const socket = client(down.api);
      sockets.push(socket);
      await connected(socket);
      expect(await request(socket, 'subscribe', { channel: 'book', condition_id: market, chain_id: CHAIN_ID })).toMatchObject({ ok: false, error: { code: 'SERVICE_DEGRADED' } });
    } finally {
      await down.close();
      await unreachable.close();
    }
  });

  it('when chain_id is omitted, then the default chain (56) is meant, and condition_id case does not matter', async () => {
    const socket = open();
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'trades', condition_id: market.toUpperCase().replace('0X', '0x') })).toEqual({ ok: true });
  });

  it('when a connection exceeds its subscription limit, then the ack is RATE_LIMITED, and unsubscribing frees a slot', async () => {
    const socket = open();
    await connected(socket);
    for (const channel of ['book', 'ticker', 'trades']) {
      expect(await request(socket, 'subscribe', { channel, condition_id: market, chain_id: CHAIN_ID })).toEqual({ ok: true });
    }
    const other = await seedMarket(db());
    expect(await request(socket, 'subscribe', { channel: 'book', condition_id: other, chain_id: CHAIN_ID })).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    // Subscribing again to a held channel is not a new subscription.
    expect(await request(socket, 'subscribe', { channel: 'ticker', condition_id: market, chain_id: CHAIN_ID })).toEqual({ ok: true });
    expect(await request(socket, 'unsubscribe', { channel: 'ticker', condition_id: market, chain_id: CHAIN_ID })).toEqual({ ok: true });
    expect(await request(socket, 'subscribe', { channel: 'book', condition_id: other, chain_id: CHAIN_ID })).toEqual({ ok: true });
  });
});
