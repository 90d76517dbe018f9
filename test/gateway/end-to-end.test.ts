import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Socket as ClientSocket } from 'socket.io-client';
import type { ApiModules } from '../../src/api/routes';
import type { RunningApi } from '../../src/api/server';
import { call, keyPair, signJwt, startApiWithGateway } from '../api/app-harness';
import { watchOutput } from '../helpers/child-output';
import { useTestDatabase } from '../helpers/test-database';
import { client, connected, eventually, newPublisher, refused, request, seedMarket, wallet } from './gateway-harness';

/** How often the gateway checks its connections' API keys in these tests. */
const KEY_CHECK_MS = 100;

describe('realtime gateway end to end: POST /v1/auth/ws-token, the handshake and the example client', () => {
  const { db } = useTestDatabase('gw_e2e');
  let api: RunningApi;
  let modules: ApiModules;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    ({ api, modules } = await startApiWithGateway(db(), KEY_CHECK_MS));
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await modules?.close();
    await api?.close();
  });

  /** A connected socket opened with a ws token issued under `headers`, with what it was told and whether it was dropped. */
  async function userSocket(headers: Record<string, string>) {
    const issued = await call(`${api.url}/v1/auth/ws-token`, { method: 'POST', headers });
    expect(issued.status).toBe(200);
    const socket = client(api, issued.body.token as string);
    sockets.push(socket);
    const seen = { errors: [] as { code: string }[], disconnected: false };
    socket.on('gateway_error', (e: { code: string }) => seen.errors.push(e));
    socket.on('disconnect', () => { seen.disconnected = true; });
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'user' })).toEqual({ ok: true });
    return { socket, seen };
  }

  it('when the API key a connection was opened with is revoked or its secret regenerated, then that connection is told AUTH_REVOKED and closed within the key check, and the wallet\'s other connections stay', async () => {
    const owner = wallet();
    const jwt = { authorization: `Bearer ${await signJwt(owner)}` };
    const [revoked, regenerated, kept] = [await apiKeyFor(owner), await apiKeyFor(owner), await apiKeyFor(owner)];
    const a = await userSocket(keyPair(revoked.key_id, revoked.secret));
    const b = await userSocket(keyPair(regenerated.key_id, regenerated.secret));
    const c = await userSocket(keyPair(kept.key_id, kept.secret));
    const viaJwt = await userSocket(jwt);

    expect((await call(`${api.url}/v1/auth/api-keys/${revoked.key_id}`, { method: 'DELETE', headers: jwt })).status).toBe(200);
    await eventually(() => a.seen.disconnected, 20 * KEY_CHECK_MS, 'the revoked key\'s connection closed');
    expect(a.seen.errors).toEqual([expect.objectContaining({ code: 'AUTH_REVOKED' })]);

    const fresh = await call(`${api.url}/v1/auth/api-keys/${regenerated.key_id}/regenerate`, { method: 'POST', headers: jwt });
    expect(fresh.status).toBe(200);
    await eventually(() => b.seen.disconnected, 20 * KEY_CHECK_MS, 'the regenerated key\'s connection closed');
    expect(b.seen.errors).toEqual([expect.objectContaining({ code: 'AUTH_REVOKED' })]);
    // A connection opened with the new secret lives on.
    const renewed = await userSocket(keyPair(regenerated.key_id, fresh.body.secret as string));

    await new Promise((r) => setTimeout(r, 3 * KEY_CHECK_MS));
    for (const other of [c, viaJwt, renewed]) expect(other.seen).toEqual({ errors: [], disconnected: false });
    // ...and still gets the wallet's events.
    const received: unknown[] = [];
    renewed.socket.on('user', (m: unknown) => received.push(m));
    await newPublisher(db()).publish([{ channel: 'user', wallet: owner, payload: { type: 'order', order: { order_hash: '0xafter' } } }]);
    await eventually(() => received.length > 0, 5_000, 'the renewed connection gets the wallet\'s event');
  });

  async function apiKeyFor(owner: string): Promise<{ key_id: string; secret: string }> {
    const created = await call(`${api.url}/v1/auth/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${await signJwt(owner)}` }, body: {} });
    expect(created.status).toBe(201);
    return created.body as { key_id: string; secret: string };
  }

  it('when a token comes from POST /v1/auth/ws-token, then it opens the user channel once, for its wallet only', async () => {
    const owner = wallet();
    const key = await apiKeyFor(owner);
    const issued = await call(`${api.url}/v1/auth/ws-token`, { method: 'POST', headers: keyPair(key.key_id, key.secret) });
    expect(issued.status).toBe(200);
    expect(issued.body.expires_in).toBe(60);
    const socket = client(api, issued.body.token as string);
    sockets.push(socket);
    const received: unknown[] = [];
    socket.on('user', (m: unknown) => received.push(m));
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'user' })).toEqual({ ok: true });
    const again = client(api, issued.body.token as string);
    sockets.push(again);
    expect((await refused(again)).data?.code).toBe('AUTH_INVALID');

    const publisher = newPublisher(db());
    await publisher.publish([
      { channel: 'user', wallet: wallet(), payload: { type: 'order', order: { order_hash: '0xother' } } },
      { channel: 'user', wallet: owner, payload: { type: 'order', order: { order_hash: '0xmine' } } },
    ]);
    const until = Date.now() + 5_000;
    while (received.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toEqual([{ type: 'order', order: { order_hash: '0xmine' } }]);
  });

  it('when the example client runs with an API key pair, then it subscribes and prints the events it gets', async () => {
    const owner = wallet();
    const key = await apiKeyFor(owner);
    const market = await seedMarket(db());
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), join(__dirname, '../../scripts/ws-example.ts')], {
      env: { ...process.env, PREDEX_URL: api.url, PREDEX_API_KEY: key.key_id, PREDEX_API_SECRET: key.secret, CONDITION_ID: market, CHAIN_ID: '56' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = watchOutput(child, 'example client');
    try {
      await output.printed('subscribe user {"ok":true}');
      await output.printed('book seq 0');
      await newPublisher(db()).publish([{ channel: 'user', wallet: owner, payload: { type: 'order', order: { order_hash: '0xexample', status: 'OPEN' } } }]);
      await output.printed('"order_hash":"0xexample"');
      expect(output.text()).toContain('connected (authenticated)');
      expect(output.text()).toContain('subscribe trades {"ok":true}');
    } finally {
      child.kill('SIGINT');
    }
  });
});
