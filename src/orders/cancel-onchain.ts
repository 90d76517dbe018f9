import type { Address, Hex } from 'viem';
import { AppError } from '../errors';
import { SIDE } from '../signing';
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
  const data = ctx.chain.cancelOrderCalldata({ chainId: order.chain_id, exchange, order: {
    salt: BigInt(order.salt),
    maker: order.maker as Address,
    signer: order.signer as Address,
    taker: order.taker as Address,
    tokenId: BigInt(order.token_id),
    makerAmount: BigInt(order.maker_amount),
    takerAmount: BigInt(order.taker_amount),
    expiration: BigInt(order.expiration),
    nonce: BigInt(order.nonce),
    feeRateBps: BigInt(order.fee_rate_bps),
    side: SIDE[order.side],
    signatureType: order.signature_type,
    signature: order.signature as Hex,
  } });
  return { to: market.ctf_exchange_address, data, chain_id: order.chain_id };
}
