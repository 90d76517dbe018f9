/**
 * A plain node:http JSON-RPC endpoint in front of an in-process chain, so wallets, scripts and
 * viem's http transport reach it like any node. Single and batch requests; CORS open (local only).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRpcRequest, JsonRpcResponse } from './edr-provider';

export interface RpcServer {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

function invalid(id: JsonRpcResponse['id'], code: number, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

async function answer(body: unknown, handle: (r: JsonRpcRequest) => Promise<JsonRpcResponse>): Promise<unknown> {
  const one = async (item: unknown): Promise<JsonRpcResponse> => {
    if (!item || typeof item !== 'object' || typeof (item as JsonRpcRequest).method !== 'string') {
      return invalid(null, -32600, 'Invalid Request');
    }
    return handle(item as JsonRpcRequest);
  };
  if (Array.isArray(body)) {
    if (body.length === 0) return invalid(null, -32600, 'Invalid Request: empty batch');
    // Sequential on purpose: the chain serialises anyway, and order keeps nonces predictable.
    const out: JsonRpcResponse[] = [];
    for (const item of body) out.push(await one(item));
    return out;
  }
  return one(body);
}

export function startRpcServer(options: {
  host: string;
  port: number;
  handle: (request: JsonRpcRequest) => Promise<JsonRpcResponse>;
}): Promise<RpcServer> {
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(invalid(null, -32700, 'Parse error')));
      }
      answer(body, options.handle).then(
        (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
        (error: unknown) => res.writeHead(500, { 'content-type': 'application/json' }).end(
          JSON.stringify(invalid(null, -32603, error instanceof Error ? error.message : 'Internal error')),
        ),
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        url: `http://${host}:${port}`,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
