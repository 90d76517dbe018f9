/**
 * The fetch the chain's http transport uses, timed: each JSON-RPC request (or batch) to the node
 * counted by method and outcome, with its latency. Methods come from this code's own calls.
 */
import { chainDuration, chainRequests, secondsSince } from './metrics';

function methodOf(body: unknown): string {
  if (typeof body !== 'string') return 'unknown';
  try {
    const parsed = JSON.parse(body) as { method?: unknown } | { method?: unknown }[];
    if (Array.isArray(parsed)) return parsed.length === 1 ? String(parsed[0]?.method) : 'batch';
    return typeof parsed.method === 'string' ? parsed.method : 'unknown';
  } catch {
    return 'unknown';
  }
}

export const timedChainFetch: typeof fetch = async (input, init) => {
  const method = methodOf(init?.body);
  const started = performance.now();
  try {
    const response = await fetch(input, init);
    chainRequests.inc({ method, outcome: response.ok ? 'ok' : 'http_error' });
    return response;
  } catch (error) {
    chainRequests.inc({ method, outcome: 'network_error' });
    throw error;
  } finally {
    chainDuration.observe({ method }, secondsSince(started));
  }
};
