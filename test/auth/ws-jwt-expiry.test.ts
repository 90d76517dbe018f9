import type { Socket as ClientSocket } from 'socket.io-client';
import type { ApiModules } from '../../src/api/routes';
import type { RunningApi } from '../../src/api/server';
import { call, signJwt, startApiWithGateway } from '../api/app-harness';
import { useTestDatabase } from '../helpers/test-database';
import { client, connected, eventually, request, wallet } from '../gateway/gateway-harness';

const KEY_CHECK_MS = 100;

describe('a socket opened with a JWT-issued ws token lives as long as that JWT', () => {
  const { db } = useTestDatabase('ws_jwt_exp');
  let api: RunningApi;
  let modules: ApiModules;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    ({ api, modules } = await startApiWithGateway(db(), KEY_CHECK_MS));
  });
  afterAll(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    await modules?.close();
    await api?.close();
  });

  async function tokenFor(jwt: string): Promise<string> {
    const issued = await call(`${api.url}/v1/auth/ws-token`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });
    expect(issued.status).toBe(200);
    return issued.body.token as string;
  }

  async function userSocket(jwt: string) {
    const socket = client(api, await tokenFor(jwt));
    sockets.push(socket);
    const seen = { errors: [] as { code: string }[], disconnectedAt: 0 };
    socket.on('gateway_error', (e: { code: string }) => seen.errors.push(e));
    socket.on('disconnect', () => { seen.disconnectedAt = Date.now(); });
    await connected(socket);
    expect(await request(socket, 'subscribe', { channel: 'user' })).toEqual({ ok: true });
    return seen;
  }

  it('when the JWT expires, then its socket is told AUTH_INVALID and closed within the check; a socket of a later-expiring JWT stays', async () => {
    const owner = wallet();
    const exp = Math.floor(Date.now() / 1000) + 3;
    const short = await userSocket(await signJwt(owner, { expiresIn: exp }));
    const long = await userSocket(await signJwt(owner, { expiresIn: '10m' }));

    await eventually(() => short.disconnectedAt > 0, 10_000, 'the expired JWT\'s socket closed');
    expect(short.errors).toEqual([expect.objectContaining({ code: 'AUTH_INVALID', message: expect.stringMatching(/expired/) })]);
    expect(short.disconnectedAt).toBeGreaterThanOrEqual(exp * 1000);
    expect(short.disconnectedAt).toBeLessThan(exp * 1000 + 2_000);
    await new Promise((r) => setTimeout(r, 5 * KEY_CHECK_MS));
    expect([long.disconnectedAt, long.errors]).toEqual([0, []]);
  });

  it('when a ws token is presented after the JWT it was issued with expired, then the handshake is refused AUTH_INVALID', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = await tokenFor(await signJwt(wallet(), { expiresIn: exp }));
    await new Promise((r) => setTimeout(r, exp * 1000 - Date.now() + 50));
    const socket = client(api, token);
    sockets.push(socket);
    const refusal = await new Promise<{ data?: { code?: string } }>((resolve) => socket.on('connect_error', resolve));
    expect(refusal.data?.code).toBe('AUTH_INVALID');
  });
});
