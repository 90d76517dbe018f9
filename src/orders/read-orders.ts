import { checkLimit, decodeCursor, pageQuery, toPage, type Page } from '../http/pagination';
import type { OrderRecord, OrderStatus } from '../ports/order-record';
import { AppError } from '../errors';
import type { OrderContext } from './context';
import type { OrdersQuery } from './order.schema';
import { presentOrder } from '../presenters/present-order';

export const STATUS_GROUPS: Record<OrdersQuery['status'], OrderStatus[] | undefined> = {
  open: ['OPEN', 'PARTIALLY_FILLED'],
  filled: ['MATCHED', 'FILLED'],
  cancelled: ['CANCELLED', 'EXPIRED', 'MATCH_FAILED'],
  all: undefined,
};

export function checkChainId(ctx: OrderContext, chainId: number | undefined): void {
  if (chainId !== undefined && !ctx.chainIds.includes(chainId)) throw new AppError('NOT_FOUND', `Unknown chain_id ${chainId}`);
}

/** GET /v1/orders: the wallet's orders, newest first, order_hash as tie-breaker. */
export async function listOrders(ctx: OrderContext, wallet: string, query: OrdersQuery): Promise<Page<Record<string, unknown>>> {
  checkChainId(ctx, query.chain_id);
  const limit = checkLimit(query.limit);
  const page = pageQuery(decodeCursor(query.cursor), 'created_at', 'order_hash');
  const filter: Record<string, unknown> = { wallet: wallet.toLowerCase(), ...page.filter };
  if (query.chain_id !== undefined) filter.chain_id = query.chain_id;
  if (query.condition_id !== undefined) filter.condition_id = query.condition_id.toLowerCase();
  if (query.client_order_id !== undefined) filter.client_order_id = query.client_order_id;
  const statuses = STATUS_GROUPS[query.status];
  if (statuses) filter.status = { $in: statuses };
  const rows = await ctx.models.orders.find(filter).sort(page.sort).limit(limit + 1).lean();
  return toPage(rows, limit, (o) => ({ at: new Date(o.created_at), id: o.order_hash }), presentOrder);
}

/** The wallet's order by hash (primary-key lookup), or null for an unknown or foreign one. */
export async function findOwnOrder(ctx: OrderContext, wallet: string, orderHash: string): Promise<OrderRecord | null> {
  const order = await ctx.models.orders.findById(orderHash.toLowerCase()).lean();
  return order && order.wallet === wallet.toLowerCase() ? order : null;
}

/** GET /v1/orders/{order_hash}: another wallet's order is indistinguishable from none. */
export async function getOrder(ctx: OrderContext, wallet: string, orderHash: string): Promise<Record<string, unknown>> {
  const order = await findOwnOrder(ctx, wallet, orderHash);
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  return presentOrder(order);
}
