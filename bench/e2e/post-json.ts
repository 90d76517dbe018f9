/**
 * The order POSTs of the load phases over `node:http` with one keep-alive agent. The bench shares
 * the machine with the service it measures; global `fetch` (undici's WHATWG layer, plus a timeout
 * signal per request) cost the bench ~0.75 ms of CPU per request, which under single-order
 * requests was ~9% of the two cores (docs/benchmarks.md, "Numbers behind the design"). Plain `http.request` on
 * reused sockets does the same request for a fraction of that.
 */
import http from 'node:http';

/**
 * Idle sockets are closed after 4 s, before the API's own 5 s keep-alive timeout (Node's default)
 * can close one under a request just written to it (ECONNRESET). Node's agent lowers this further
 * to the server's `Keep-Alive: timeout` hint less a second, but only when a timeout is set.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 512, timeout: 4_000 });
const TIMEOUT_MS = 30_000;

/**
 * POSTs `body` (already JSON) to `url`; the answer's status and parsed body (its text if not JSON).
 * A reused socket the server had closed meanwhile (ECONNRESET before any answer) is tried once
 * more on a new one, as Node's documentation advises: the server never read that request.
 */
export async function postJson<T>(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: T }> {
  try {
    return await postOnce<T>(url, headers, body);
  } catch (error) {
    if ((error as { code?: string; reusedSocket?: boolean }).code !== 'ECONNRESET' || !(error as { reusedSocket?: boolean }).reusedSocket) throw error;
    return postOnce<T>(url, headers, body);
  }
}

function postOnce<T>(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: T }> {
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
    req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}
