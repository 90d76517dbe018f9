import type { Address, Hex } from 'viem';
import { signedOrderOfRecord } from '../ports/signed-order-of-record';
import { AppError } from '../errors';
import type { OrderContext } from './context';
import { notCancellable } from './cancel-orders';
import { findOwnOrder } from './read-orders';

/**
 * POST /v1/orders/{order_hash}/cancel-onchain: unsigned `cancelOrder(Order)` calldata for the
 * stored signed order, to the market's exchange. The service never sends it.
 */
export async function cancelOnchainCalldata(ctx: OrderContext, wallet: string, orderHash: string): Promise<{ to: string; data: Hex; chain_id: number }> {
  const order = await findOwnOrder(ctx, wallet, orderHash);
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  const refusal = notCancellable(order);
  if (refusal) throw new AppError(refusal.error.code, refusal.error.message);
  const market = await ctx.models.markets.findOne({ chain_id: order.chain_id, condition_id: order.condition_id }, { ctf_exchange_address: 1 }).lean();
  if (!market) throw new AppError('NOT_FOUND', 'Market of the order not found');
  const exchange = market.ctf_exchange_address as Address;
  const data = ctx.chain.cancelOrderCalldata({ chainId: order.chain_id, exchange, order: signedOrderOfRecord(order) });
  return { to: market.ctf_exchange_address, data, chain_id: order.chain_id };
}
