import { createServer, Socket } from 'node:net';

/** Asks the OS for a free TCP port on `host` (used by tests to run servers side by side). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000);
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host);
  });
}

export async function isPortOpen(host: string, port: number): Promise<boolean> {
  return canConnect(host, port);
}

/** Resolves once something accepts TCP connections on host:port; rejects after `timeoutMs`. */
export async function waitForPort(host: string, port: number, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`process exited before ${host}:${port} opened`);
    if (await canConnect(host, port)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${host}:${port} did not open within ${timeoutMs} ms`);
}
