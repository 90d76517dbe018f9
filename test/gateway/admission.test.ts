import { request as httpRequest } from 'node:http';
import type { Socket as ClientSocket } from 'socket.io-client';
import { useTestDatabase } from '../helpers/test-database';
import { connected, eventually, refused, serversPerTest } from './gateway-harness';

/**
 * A bare handshake to the gateway, as a WebSocket upgrade or a polling open: the HTTP status and
 * body it is answered with.
 */
function rawHandshake(url: string, transport: 'websocket' | 'polling'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const upgrade = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };
    const req = httpRequest(`${url}/v1/ws/?EIO=4&transport=${transport}`, { headers: transport === 'websocket' ? upgrade : {} });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('realtime gateway: admission of connections', () => {
  const { db } = useTestDatabase('gw_admission');
  const { start, attempt, cleanUp } = serversPerTest(db);
  afterEach(cleanUp);

  it('when one address holds its maximum of connections, then its next handshake is refused RATE_LIMITED until one closes', async () => {
    const server = await start({ limits: { maxConnectionsPerAddress: 3 } });
    const held = [attempt(server), attempt(server), attempt(server)];
    await Promise.all(held.map(connected));
    const error = await refused(attempt(server));
    expect(error.data).toEqual({ code: 'RATE_LIMITED', message: expect.stringContaining('3 connections') });
    expect(server.gateway.stats().connections).toBe(3);
    held[0].disconnect();
    await eventually(async () => {
      const retry = attempt(server);
      return connected(retry).then(() => true, () => false);
    }, 5_000, 'a slot freed');
  });

  it('when one address handshakes faster than its rate, then the excess is refused RATE_LIMITED before any token is read, and past its refusals cut with 429 before engine.io', async () => {
    const server = await start({ limits: { handshakesPerSecond: 1, handshakeBurst: 3 } });
    const first = [attempt(server), attempt(server), attempt(server)];
    await Promise.all(first.map(connected));
    const refusals = [];
    for (let i = 0; i < 3; i += 1) {
      // A token that would be consumed (and fail) if the check came after it.
      const socket = attempt(server, 'some-token');
      refusals.push((await refused(socket)).data);
      // The refused transport is closed by the server, not left to the client.
      await eventually(() => socket.io.engine.readyState === 'closed', 5_000, 'transport closed');
    }
    expect(refusals).toEqual(Array(3).fill({ code: 'RATE_LIMITED', message: expect.stringContaining('handshakes per second') }));
    // The address ignored three refusals: its next handshakes, either transport, are answered 429
    // with the error envelope before engine.io holds anything for them.
    for (const transport of ['websocket', 'polling'] as const) {
      const answer = await rawHandshake(server.api.url, transport);
      expect(answer.status).toBe(429);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'RATE_LIMITED', status_code: 429, message: expect.stringContaining('handshakes per second') });
    }
    expect(server.api.io.engine.clientsCount).toBe(3);
    expect(server.gateway.stats().connections).toBe(3);
  });

  it('when the heap nears its limit, then new handshakes are refused and the newest connections are shed first', async () => {
    let pressure = false;
    const server = await start({ limits: { memoryCheckMs: 50 }, heap: () => ({ used: pressure ? 90 : 10, limit: 100 }) });
    const opened: ClientSocket[] = [];
    const told = new Map<ClientSocket, unknown>();
    for (let i = 0; i < 6; i += 1) {
      const socket = attempt(server);
      await connected(socket);
      socket.on('gateway_error', (m: unknown) => told.set(socket, m));
      opened.push(socket);
    }
    pressure = true;
    await eventually(() => server.gateway.stats().connections < 6, 5_000, 'first shed');
    const error = await refused(attempt(server));
    expect(error.data).toMatchObject({ code: 'SERVICE_DEGRADED' });
    await eventually(() => server.gateway.stats().connections <= 3, 5_000, 'shed to three');
    pressure = false;
    await new Promise((r) => setTimeout(r, 200));
    const alive = opened.map((s) => s.connected);
    // Survivors are the oldest: a prefix of the opening order.
    const survivors = alive.indexOf(false);
    expect(survivors).toBeGreaterThanOrEqual(2);
    expect(alive.slice(survivors).every((a) => !a)).toBe(true);
    for (const socket of opened.slice(survivors)) expect(told.get(socket)).toEqual({ code: 'SERVICE_DEGRADED', message: expect.any(String) });
    await connected(attempt(server));
  });
});
