/**
 * The soak's open-loop load: one order per request at a fixed rate across the markets, in buy/sell
 * pairs of one buyer and one seller on one market. Of every ten pairs, eight cross (they must
 * match), one rests far from the crossing band and is cancelled a few seconds after its answer
 * (POST /v1/orders/cancel), and one rests as a GTD order with a short expiration (it must end EXPIRED).
 */
import { performance } from 'node:perf_hooks';
import { postOrders, type PostStats } from '../e2e/load';
import type { MatchObserver } from '../e2e/observer';
import { signBenchOrder, signOrderAt, type SignedBenchOrder } from '../e2e/orders';
import { postJson } from '../e2e/post-json';
import type { BenchMarket, Trader } from '../e2e/setup';
import type { Intent, SentOrder } from './verdict';

/** Far prices: a buy at 0.10 or a sell at 0.90 never meets the 0.45..0.55 crossing band. */
const FAR = { BUY: '0.10', SELL: '0.90' } as const;
const PAIRS_PER_CYCLE = 10;
const intentOfSlot = (slot: number): Intent => (slot === 8 ? 'cancel' : slot === 9 ? 'expire' : 'cross');

export interface MixedLoadOptions {
  rate: number;
  durationMs: number;
  /** A far order is cancelled this long after its placement was answered. */
  cancelAfterMs: number;
  /** A GTD order's expiration, this many seconds after it is signed. */
  expireAfterS: number;
  maxInFlight?: number;
}

export interface MixedLoadResult {
  /** Every order sent with its intent; `answer` and `cancel` are filled in by `finish`. */
  orders: (SentOrder & { postedAt: number })[];
  /** When the load started (performance.now) and the latest GTD expiration (unix seconds). */
  startedAt: number;
  lastExpiration: number;
  lateSends: number;
  cancelRequests: number;
  cancelErrors: string[];
}

interface CancelAnswer {
  cancelled?: string[];
  not_cancelled?: { order_hash: string; error: { code: string } }[];
}

/**
 * Pair `i`: its intent, market and trader pair. Market and wallets shift by a different step each
 * cycle, so that every market and every wallet gets every intent.
 */
export function pairPlan(i: number, markets: number, traderPairs: number): { intent: Intent; market: number; pair: number } {
  const cycle = Math.floor(i / PAIRS_PER_CYCLE);
  return { intent: intentOfSlot(i % PAIRS_PER_CYCLE), market: (i + cycle) % markets, pair: (i + 3 * cycle) % traderPairs };
}

/** Crossing and to-cancel pairs, signed ahead so signing does not compete with the service during the load. */
export function presign(traders: Trader[], markets: BenchMarket[], pairs: number): (SignedBenchOrder[] | null)[] {
  const buyers = traders.filter((t) => t.role === 'buyer');
  const sellers = traders.filter((t) => t.role === 'seller');
  const n = Math.min(buyers.length, sellers.length);
  return Array.from({ length: pairs }, (_, i) => {
    const plan = pairPlan(i, markets.length, n);
    const [buyer, seller, market] = [buyers[plan.pair], sellers[plan.pair], markets[plan.market]];
    if (plan.intent === 'cross') return [signBenchOrder(buyer, market), signBenchOrder(seller, market)];
    if (plan.intent === 'cancel') return [signOrderAt(buyer, market, FAR.BUY), signOrderAt(seller, market, FAR.SELL)];
    return null; // GTD: signed at its send, its expiration a few seconds ahead of then
  });
}

export async function mixedLoad(
  api: string, traders: Trader[], markets: BenchMarket[], signed: (SignedBenchOrder[] | null)[], options: MixedLoadOptions, stats: PostStats, observer: MatchObserver,
): Promise<MixedLoadResult> {
  const buyers = traders.filter((t) => t.role === 'buyer');
  const sellers = traders.filter((t) => t.role === 'seller');
  const n = Math.min(buyers.length, sellers.length);
  const maxInFlight = options.maxInFlight ?? 256;
  const inFlight = new Set<Promise<void>>();
  const result: MixedLoadResult = { orders: [], startedAt: performance.now() + 50, lastExpiration: 0, lateSends: 0, cancelRequests: 0, cancelErrors: [] };
  const cancelQueue: { order: SignedBenchOrder; sent: SentOrder; due: number }[] = [];
  const cancelling = new Set<Promise<void>>();

  const cancelDue = async (all: boolean): Promise<void> => {
    const now = performance.now();
    const due = new Set(cancelQueue.filter((c) => all || c.due <= now));
    if (due.size === 0) return;
    cancelQueue.splice(0, cancelQueue.length, ...cancelQueue.filter((c) => !due.has(c)));
    const byWallet = new Map<Trader, typeof cancelQueue>();
    for (const c of due) byWallet.set(c.order.trader, [...(byWallet.get(c.order.trader) ?? []), c]);
    await Promise.all([...byWallet].flatMap(([trader, list]) => chunks(list, 100).map(async (chunk) => {
      result.cancelRequests += 1;
      for (const c of chunk) c.sent.cancel = 'unknown';
      try {
        const res = await postJson<CancelAnswer>(`${api}/v1/orders/cancel`, { authorization: `Bearer ${trader.jwt}` }, JSON.stringify({ order_hashes: chunk.map((c) => c.order.hash) }));
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
        const answers = new Map<string, string>();
        for (const h of res.body.cancelled ?? []) answers.set(h.toLowerCase(), 'cancelled');
        for (const x of res.body.not_cancelled ?? []) answers.set(x.order_hash.toLowerCase(), x.error.code);
        for (const c of chunk) c.sent.cancel = answers.get(c.order.hash) ?? 'unknown';
      } catch (error) {
        if (result.cancelErrors.length < 5) result.cancelErrors.push(error instanceof Error ? error.message : String(error));
      }
    })));
  };

  const send = (orders: SignedBenchOrder[], intent: Intent, due: number) => {
    for (const order of orders) {
      const sent = { hash: order.hash, wallet: order.trader.address.toLowerCase(), condition_id: order.market.condition_id.toLowerCase(), side: order.wire.side, intent, answer: 'unknown', postedAt: due };
      result.orders.push(sent);
      if (intent === 'cross') observer.track([order]);
      const p = postOrders(api, order.trader, [order], stats).then(() => {
        sent.answer = stats.outcomes.get(order.hash) ?? 'unknown';
        sent.postedAt = stats.postedAt.get(order.hash) ?? due;
        if (intent === 'cancel' && sent.answer === 'accepted') cancelQueue.push({ order, sent, due: performance.now() + options.cancelAfterMs });
      }).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  };

  const cancels = setInterval(() => {
    const p = cancelDue(false).finally(() => cancelling.delete(p));
    cancelling.add(p);
  }, 500);
  try {
    let due = result.startedAt;
    const end = result.startedAt + options.durationMs;
    // Ends on the clock: a service that cannot keep the rate gets fewer orders, not a longer run.
    for (let i = 0; due < end && performance.now() < end && i < signed.length; i += 1) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
      if (performance.now() - due > 20) result.lateSends += 1;
      const plan = pairPlan(i, markets.length, n);
      let pair = signed[i];
      if (!pair) {
        const expiration = Math.floor(Date.now() / 1000) + options.expireAfterS;
        result.lastExpiration = Math.max(result.lastExpiration, expiration);
        const market = markets[plan.market];
        pair = [signOrderAt(buyers[plan.pair], market, FAR.BUY, BigInt(expiration)), signOrderAt(sellers[plan.pair], market, FAR.SELL, BigInt(expiration))];
      }
      send(pair, plan.intent, due);
      due += 2_000 / options.rate;
    }
    await Promise.all(inFlight);
  } finally {
    clearInterval(cancels);
  }
  // Far orders still waiting for their cancel are cancelled now: each must end CANCELLED.
  await Promise.all([...cancelling, cancelDue(true)]);
  return result;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
