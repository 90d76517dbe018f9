/**
 * The order POSTs of the load phases over `node:http` with one keep-alive agent. The bench shares
 * the machine with the service it measures; global `fetch` (undici's WHATWG layer, plus a timeout
 * signal per request) cost the bench ~0.75 ms of CPU per request, which under single-order
 * requests was ~9% of the two cores (docs/benchmarks.md, Findings 39). Plain `http.request` on
 * reused sockets does the same request for a fraction of that.
 */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
const TIMEOUT_MS = 30_000;

/** POSTs `body` (already JSON) to `url`; the answer's status and parsed body (its text if not JSON). */
export function postJson<T>(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // keep the text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed as T });
      });
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
