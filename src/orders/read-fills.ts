import { checkLimit, decodeCursor, toPage, type Page } from '../http/pagination';
import type { OrderContext } from './context';
import type { FillRecord } from './models/fill.model';
import type { FillsQuery } from './order.schema';
import { checkChainId } from './read-orders';

export function presentFill(f: FillRecord): Record<string, unknown> {
  return {
    trade_id: f.trade_id,
    order_hash: f.order_hash,
    condition_id: f.condition_id,
    chain_id: f.chain_id,
    role: f.role,
    side: f.side,
    outcome: f.outcome,
    price: f.price,
    size: f.size,
    fee: f.fee ?? '0',
    settlement_status: f.settlement_status ?? 'PENDING',
    tx_hash: f.tx_hash ?? '',
    created_at: new Date(f.created_at).toISOString(),
  };
}

/** The cursor id of a fill: its (trade_id, order_hash) identity; a space never occurs in either. */
const fillId = (f: Pick<FillRecord, 'trade_id' | 'order_hash'>) => `${f.trade_id} ${f.order_hash}`;

/** GET /v1/fills: the wallet's own fills (maker or taker side), newest first. */
export async function listFills(ctx: OrderContext, wallet: string, query: FillsQuery): Promise<Page<Record<string, unknown>>> {
  checkChainId(ctx, query.chain_id);
  const limit = checkLimit(query.limit);
  const filter: Record<string, unknown> = { wallet: wallet.toLowerCase() };
  if (query.chain_id !== undefined) filter.chain_id = query.chain_id;
  if (query.condition_id !== undefined) filter.condition_id = query.condition_id.toLowerCase();
  if (query.trade_ids) filter.trade_id = { $in: query.trade_ids };
  const cursor = decodeCursor(query.cursor);
  const split = cursor?.id.lastIndexOf(' ') ?? -1;
  if (cursor && split > 0) {
    const tradeId = cursor.id.slice(0, split);
    const orderHash = cursor.id.slice(split + 1);
    filter.$or = [
      { created_at: { $lt: cursor.at } },
      { created_at: cursor.at, trade_id: { $lt: tradeId } },
      { created_at: cursor.at, trade_id: tradeId, order_hash: { $lt: orderHash } },
    ];
  }
  const rows = await ctx.models.fills
    .find(filter)
    .sort({ created_at: -1, trade_id: -1, order_hash: -1 })
    .limit(limit + 1)
    .lean();
  return toPage(rows, limit, (f) => ({ at: new Date(f.created_at), id: fillId(f) }), presentFill);
}
