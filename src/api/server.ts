import { createServer, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketServer } from 'socket.io';
import { createApp, AppDeps } from './app';

export interface RunningApi {
  url: string;
  http: HttpServer;
  io: SocketServer;
  close(): Promise<void>;
}

/** Path of the realtime gateway, beside REST's /v1. */
export const WS_PATH = '/v1/ws';

/** Starts HTTP (REST) and socket.io on one port. Port 0 picks a free port (tests). */
export async function startApiServer(deps: AppDeps & { host: string; port: number }): Promise<RunningApi> {
  const app = createApp(deps);
  const http = createServer(app);
  const io = new SocketServer(http, { path: WS_PATH, serveClient: false });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(deps.port, deps.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${deps.host}:${port}`,
    http,
    io,
    close: async () => {
      await io.close(); // also closes the HTTP server
      http.closeAllConnections();
    },
  };
}
