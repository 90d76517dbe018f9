import { createServer, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketServer, ServerOptions } from 'socket.io';
import { createApp, AppDeps, MAX_BODY_BYTES } from './app';
import { withLeanRoutes, type LeanRoute } from './lean-routes';

export interface RunningApi {
  url: string;
  http: HttpServer;
  io: SocketServer;
  close(): Promise<void>;
}

/** Path of the realtime gateway, beside REST's /v1. */
export const WS_PATH = '/v1/ws';

/** What runs on the socket.io server (the realtime gateway); closed before the server. */
export interface AttachedGateway {
  close(): Promise<void>;
}

export interface ApiServerDeps extends AppDeps {
  host: string;
  port: number;
  /** socket.io options (heartbeats, buffer sizes); path and serveClient are fixed here. */
  socketOptions?: Partial<ServerOptions>;
  /** Attaches the realtime gateway (src/gateway attachGateway) before the port opens. */
  attachGateway?: (io: SocketServer) => Promise<AttachedGateway>;
  /** Routes also mounted in the app, served ahead of its router when the request allows (src/api/lean-routes.ts). */
  leanRoutes?: LeanRoute[];
}

/** Starts HTTP (REST) and socket.io on one port. Port 0 picks a free port (tests). */
export async function startApiServer(deps: ApiServerDeps): Promise<RunningApi> {
  const app = createApp(deps);
  const http = createServer(withLeanRoutes(app, deps.leanRoutes ?? [], { logger: deps.logger, limitByIp: deps.limitByIp, maxBodyBytes: MAX_BODY_BYTES }));
  // serveClient: the market page loads the browser client from here (`${WS_PATH}/socket.io.esm.min.js`), matching this server's version.
  const io = new SocketServer(http, { ...deps.socketOptions, path: WS_PATH, serveClient: true });
  const gateway = deps.attachGateway ? await deps.attachGateway(io) : undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(deps.port, deps.host, () => resolve());
    });
  } catch (error) {
    await gateway?.close();
    throw error;
  }
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${deps.host}:${port}`,
    http,
    io,
    close: async () => {
      await gateway?.close();
      await io.close(); // also closes the HTTP server
      http.closeAllConnections();
    },
  };
}
