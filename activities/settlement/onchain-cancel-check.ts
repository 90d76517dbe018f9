/** For the on-chain cancel watch: what the chain says of an order. */
import type { MarketRef } from '../../src/matching/market-ids';
import type { SettlementContext } from './context';

export function createOnchainCancelCheck({ c, chain }: SettlementContext) {
  /** For the on-chain cancel watch: what the chain says of the order, and whether it ended anyway. */
  async function checkOrderOnChain(q: { orderHash: string }): Promise<{ market: MarketRef; ended: boolean; cancelled: boolean; nonceBumped: boolean }> {
    const order = await c.orders.findOne({ _id: q.orderHash.toLowerCase() });
    if (!order) return { market: { chain_id: 0, condition_id: '' }, ended: true, cancelled: false, nonceBumped: false };
    const market = { chain_id: order.chain_id, condition_id: order.condition_id };
    if (!['OPEN', 'PARTIALLY_FILLED'].includes(order.status)) return { market, ended: true, cancelled: false, nonceBumped: false };
    const doc = await c.markets.findOne(market);
    const seen = await chain.checkOrder(order.chain_id, String(doc?.ctf_exchange_address ?? ''), order);
    return { market, ended: false, ...seen };
  }

  return { checkOrderOnChain };
}
