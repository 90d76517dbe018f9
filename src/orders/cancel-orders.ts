import type { CancelOutcome, MarketRef } from '../ports/market-matcher';
import { TERMINAL_STATUSES, type OrderRecord, type OrderStatus } from '../ports/order-record';
import { AppError } from '../errors';
import type { OrderContext } from './context';
import type { StatusReason } from '../ports/status-reasons';
import type { CancelBody } from './order.schema';

type NotCancelled = CancelOutcome['not_cancelled'][number];
type CancelTarget = Pick<OrderRecord, 'order_hash' | 'wallet' | 'status' | 'chain_id' | 'condition_id' | 'market_key'>;
const PROJECTION = { order_hash: 1, wallet: 1, status: 1, chain_id: 1, condition_id: 1, market_key: 1, created_at: 1 };

const LIVE: OrderStatus[] = ['OPEN', 'PARTIALLY_FILLED'];

/** Why an order that is not live cannot be cancelled (decisions section 5). */
export function notCancellable(order: Pick<OrderRecord, 'order_hash' | 'status'>): NotCancelled | undefined {
  if (LIVE.includes(order.status)) return undefined;
  if (order.status === 'MATCHED' || order.status === 'FILLED') {
    return { order_hash: order.order_hash, error: { code: 'ORDER_ALREADY_FILLED', message: 'Order is already filled' } };
  }
  return { order_hash: order.order_hash, error: { code: 'ORDER_NOT_OPEN', message: `Order is ${order.status}` } };
}

/**
 * POST /v1/orders/cancel. Orders not live are answered from the record; live ones go through
 * their market's matcher (grouped per market), which has the last word, so a cancel racing a match
 * has exactly one winner. `reason`: why the orders end (USER_CANCEL by default).
 */
export async function cancelOrders(ctx: OrderContext, wallet: string, body: CancelBody, reason?: StatusReason): Promise<CancelOutcome> {
  const owner = wallet.toLowerCase();
  const outcome: CancelOutcome = { cancelled: [], not_cancelled: [] };
  let orders: CancelTarget[];
  const projection = PROJECTION;

  if ('order_hashes' in body) {
    const hashes = [...new Set(body.order_hashes.map((h) => h.toLowerCase()))];
    const found = await Promise.all(hashes.map((h) => ctx.models.orders.findById(h, projection).lean()));
    orders = found.filter((o) => o !== null && o.wallet === owner).map((o) => o!);
    const known = new Set(orders.map((o) => o.order_hash));
    for (const hash of hashes) {
      if (!known.has(hash)) outcome.not_cancelled.push({ order_hash: hash, error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } });
    }
  } else if ('client_order_ids' in body) {
    orders = await ordersOfClientIds(ctx, owner, body.client_order_ids, outcome);
  } else {
    const filter: Record<string, unknown> = { wallet: owner, status: { $in: LIVE } };
    if ('filter' in body) {
      const f = body.filter;
      if (f.condition_id !== undefined) filter.condition_id = f.condition_id.toLowerCase();
      if (f.chain_id !== undefined) filter.chain_id = f.chain_id;
      if (f.side !== undefined) filter.side = f.side;
      if (f.outcome !== undefined) filter.outcome = f.outcome;
    }
    // One page, in no particular order: a sort would read every live order of the wallet first.
    orders = await ctx.models.orders.find(filter, projection).limit(ctx.cancelPage + 1).lean();
    outcome.has_more = orders.length > ctx.cancelPage;
    orders = orders.slice(0, ctx.cancelPage);
  }

  const byMarket = new Map<string, { market: MarketRef; hashes: string[] }>();
  for (const order of orders) {
    const refusal = notCancellable(order);
    if (refusal) {
      outcome.not_cancelled.push(refusal);
      continue;
    }
    const group = byMarket.get(order.market_key) ?? { market: { chain_id: order.chain_id, condition_id: order.condition_id }, hashes: [] };
    group.hashes.push(order.order_hash);
    byMarket.set(order.market_key, group);
  }
  // Each market answers on its own: one whose matcher fails does not take the others' answers
  // (applied, and final) down with it. Its orders are said not cancelled, with why; a cancel is
  // safe to send again (an order cancelled meanwhile answers ORDER_NOT_OPEN).
  const groups = [...byMarket.values()];
  const answers = await Promise.allSettled(groups.map(({ market, hashes }) => ctx.matcher.cancel(market, owner, hashes, reason)));
  const failed = answers.flatMap((answer, i) => (answer.status === 'rejected' ? [{ group: groups[i], reason: answer.reason as unknown }] : []));
  if (failed.length > 0 && failed.length === groups.length) {
    throw new AppError('SERVICE_DEGRADED', 'The markets\' matchers did not answer; no cancel was confirmed. Retry.', undefined, { cause: failed[0].reason });
  }
  for (const answer of answers) {
    if (answer.status === 'rejected') continue;
    outcome.cancelled.push(...answer.value.cancelled);
    outcome.not_cancelled.push(...answer.value.not_cancelled);
  }
  for (const { group, reason } of failed) {
    ctx.logger?.error({ err: reason, market: group.market, orders: group.hashes.length }, 'cancel: the market\'s matcher failed');
    const error = { code: 'SERVICE_DEGRADED' as const, message: 'The market\'s matcher did not answer; the cancel is not confirmed. Retry.' };
    for (const hash of group.hashes) outcome.not_cancelled.push({ order_hash: hash, error });
  }
  return outcome;
}

/**
 * The order each client order id names: the one order not yet ended that holds it, else its newest (answered from its record:
 * filled or not open); an id no order of the wallet carries is ORDER_NOT_FOUND.
 */
async function ordersOfClientIds(ctx: OrderContext, owner: string, ids: string[], outcome: CancelOutcome): Promise<CancelTarget[]> {
  const wanted = [...new Set(ids)];
  const found = await ctx.models.orders.find({ wallet: owner, client_order_id: { $in: wanted } }, { ...PROJECTION, client_order_id: 1 }).lean();
  const named = new Map<string, (CancelTarget & { created_at: Date })[]>();
  for (const o of found) named.set(o.client_order_id!, [...(named.get(o.client_order_id!) ?? []), o]);
  const orders: CancelTarget[] = [];
  for (const id of wanted) {
    const mine = named.get(id);
    if (!mine) {
      outcome.not_cancelled.push({ order_hash: null, client_order_id: id, error: { code: 'ORDER_NOT_FOUND', message: `No order has client_order_id ${id}` } });
      continue;
    }
    const live = mine.find((o) => !TERMINAL_STATUSES.includes(o.status));
    orders.push(live ?? mine.reduce((a, b) => (new Date(b.created_at) > new Date(a.created_at) ? b : a)));
  }
  return orders;
}
