/** Load generators: closed loop (N clients, batches), open loop (fixed rate, pairs), sequential. */
import { performance } from 'node:perf_hooks';
import type { SignedBenchOrder } from './orders';
import type { MatchObserver } from './observer';
import { postJson } from './post-json';
import type { Trader } from './setup';

interface PlaceResponse {
  results: { status?: string; order_hash?: string; error?: { code: string; message: string } }[];
}

export interface PostStats {
  sent: number;
  accepted: number;
  rejected: number;
  httpErrors: number;
  errorSamples: string[];
  /** per request: ms from POST start to response */
  requestMs: number[];
  /** order hash -> POST start (performance.now) */
  postedAt: Map<string, number>;
  /** order hash -> POST answered (performance.now) */
  answeredAt: Map<string, number>;
  firstPost: number;
  lastResponse: number;
  /** order hash -> `accepted` or the inline rejection's code (absent: no answer, the order's fate unknown) */
  outcomes: Map<string, string>;
}

export function newPostStats(): PostStats {
  return { sent: 0, accepted: 0, rejected: 0, httpErrors: 0, errorSamples: [], requestMs: [], postedAt: new Map(), answeredAt: new Map(), firstPost: Infinity, lastResponse: 0, outcomes: new Map() };
}

export async function postOrders(api: string, trader: Trader, orders: SignedBenchOrder[], stats: PostStats): Promise<void> {
  const start = performance.now();
  stats.firstPost = Math.min(stats.firstPost, start);
  for (const o of orders) stats.postedAt.set(o.hash, start);
  stats.sent += orders.length;
  let res: { status: number; body: PlaceResponse };
  try {
    res = await postJson<PlaceResponse>(`${api}/v1/orders`, { authorization: `Bearer ${trader.jwt}` }, JSON.stringify({ orders: orders.map((o) => o.wire) }));
  } catch (error) {
    stats.httpErrors += orders.length;
    if (stats.errorSamples.length < 5) stats.errorSamples.push(`POST: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const end = performance.now();
  stats.lastResponse = Math.max(stats.lastResponse, end);
  stats.requestMs.push(end - start);
  for (const o of orders) stats.answeredAt.set(o.hash, end);
  if (res.status !== 200 || !Array.isArray(res.body.results)) {
    stats.httpErrors += orders.length;
    if (stats.errorSamples.length < 5) stats.errorSamples.push(`HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return;
  }
  for (const [i, r] of res.body.results.entries()) {
    // Results come in the request's order; a result's own hash, when it carries one, wins.
    const hash = r.order_hash?.toLowerCase() ?? orders[i]?.hash;
    if (hash) stats.outcomes.set(hash, r.error ? r.error.code : 'accepted');
    if (r.error) {
      stats.rejected += 1;
      if (stats.errorSamples.length < 5) stats.errorSamples.push(`${r.error.code}: ${r.error.message}`);
    } else stats.accepted += 1;
  }
}

/** Every client sends its batches one after the other; all clients run at once. */
export async function closedLoop(api: string, streams: SignedBenchOrder[][][], traders: Trader[], stats: PostStats, deadline: number): Promise<void> {
  await Promise.all(
    streams.map(async (batches, t) => {
      for (const batch of batches) {
        if (performance.now() > deadline) return;
        await postOrders(api, traders[t], batch, stats);
      }
    }),
  );
}

/**
 * Open loop: group i (a buy request and a sell request of `k` orders each, sent together) is due
 * at t0 + i * 2k / rate, whatever earlier requests are doing; at most `maxInFlight` requests are
 * outstanding (beyond that a send waits, and the delay shows up as `lateSends`).
 */
export async function openLoop(
  api: string, groups: [SignedBenchOrder[], SignedBenchOrder[]][], ordersPerSecond: number, stats: PostStats, observer: MatchObserver, maxInFlight = 256,
): Promise<{ scheduledAt: Map<string, number>; lateSends: number }> {
  const scheduledAt = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let lateSends = 0;
  const t0 = performance.now() + 50;
  let due = t0;
  for (const group of groups) {
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
    if (performance.now() - due > 20) lateSends += 1;
    for (const batch of group) {
      for (const order of batch) scheduledAt.set(order.hash, due);
      observer.track(batch);
      const p = postOrders(api, batch[0].trader, batch, stats).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    due += ((group[0].length + group[1].length) * 1_000) / ordersPerSecond;
  }
  await Promise.all(inFlight);
  return { scheduledAt, lateSends };
}

/** One order per request, one request at a time, alternating buy and sell. */
export async function sequential(api: string, orders: SignedBenchOrder[], stats: PostStats, deadline: number): Promise<void> {
  for (const o of orders) {
    if (performance.now() > deadline) return;
    await postOrders(api, o.trader, [o], stats);
  }
}
