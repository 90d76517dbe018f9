import { timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RealtimeEvent } from '../ports/realtime-publisher';
import type { Logger } from '../logging/logger';

/** Largest push body: one activity's events for one step (a big match) fit in far less. */
export const MAX_PUSH_BYTES = 8 * 1024 * 1024;
export const PUSH_PATH = '/internal/realtime/events';

export interface PushReceiverOptions {
  /** Interface the internal endpoint listens on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** Base URL workers use to reach it, when the listen address is not reachable as is (containers). */
  advertiseUrl?: string;
}

export interface PushReceiver {
  url: string;
  close(): Promise<void>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PUSH_BYTES) {
        reject(new Error('push body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The internal endpoint workers push events to: POST {events} with `authorization: Bearer
 * <secret>`. Events are dispatched in order before the 204, so a publisher that awaits its push
 * knows every local socket has them queued. A separate server from the public port.
 */
export async function startPushReceiver(
  secret: () => string,
  onEvents: (events: RealtimeEvent[]) => void,
  logger: Logger,
  options: PushReceiverOptions = {},
): Promise<PushReceiver> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== PUSH_PATH) return void res.writeHead(404).end();
    const auth = req.headers.authorization ?? '';
    const expected = secret();
    if (!expected || !auth.startsWith('Bearer ') || !sameSecret(auth.slice(7), expected)) return void res.writeHead(401).end();
    let events: RealtimeEvent[];
    try {
      const body = JSON.parse(await readBody(req)) as { events?: unknown };
      if (!Array.isArray(body.events)) throw new Error('events must be an array');
      events = body.events as RealtimeEvent[];
    } catch (error) {
      logger.warn({ err: error }, 'rejected realtime push');
      return void res.writeHead(400).end();
    }
    onEvents(events);
    res.writeHead(204).end();
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'realtime push failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: options.advertiseUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
