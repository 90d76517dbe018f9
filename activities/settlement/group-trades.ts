/** The trades a group sends, read from its fills and orders, and the market's exchange. */
import { findByIds, type FillRecord } from '../../src/matching/collections';
import { fillIdOf, fillIdsOf, type MarketRef } from '../../src/matching/market-ids';
import type { SettlementGroup } from '../../src/matching/payloads';
import type { SettlementLeg, SettlementTrade } from '../../src/settlement/settlement-port';
import type { SettlementContext } from './context';

export function createGroupTrades({ c, afterSteps }: SettlementContext) {
  /** The settlement trades of the given groups, read with one query per collection. */
  async function tradesOf(groups: SettlementGroup[]): Promise<Map<string, SettlementTrade[] | string>> {
    const fills = await afterSteps('settle.sendFills', () => findByIds(c.fills, fillIdsOf(groups.flatMap((g) => g.tradeIds))));
    const orders = await afterSteps('settle.sendOrders', () => findByIds(c.orders, [...new Set(fills.map((f) => f.order_hash))]));
    const orderOf = new Map(orders.map((o) => [o.order_hash, o]));
    const fillOf = new Map(fills.map((f) => [fillIdOf(f.trade_id, f.role), f]));
    const out = new Map<string, SettlementTrade[] | string>();
    for (const group of groups) {
      const trades: SettlementTrade[] = [];
      for (const tradeId of group.tradeIds) {
        const maker = fillOf.get(fillIdOf(tradeId, 'maker'));
        const taker = fillOf.get(fillIdOf(tradeId, 'taker'));
        if (!maker || !taker || !orderOf.get(maker.order_hash) || !orderOf.get(taker.order_hash)) {
          out.set(group.batchId, `trade ${tradeId} has no complete fills`);
          break;
        }
        const leg = (f: FillRecord): SettlementLeg => ({ order: orderOf.get(f.order_hash)!, size: f.size_units, collateral: f.collateral_units, fee: f.fee_units });
        trades.push({ tradeId, kind: maker.kind, yesPrice: yesTicks(maker), size: maker.size_units, maker: leg(maker), taker: leg(taker) });
      }
      if (!out.has(group.batchId)) out.set(group.batchId, trades);
    }
    return out;
  }

  async function exchangeOf(market: MarketRef): Promise<string> {
    const doc = await c.markets.findOne({ chain_id: market.chain_id, condition_id: market.condition_id });
    return String(doc?.ctf_exchange_address ?? '');
  }

  return { tradesOf, exchangeOf };
}

export type GroupTrades = ReturnType<typeof createGroupTrades>;

/** YES ticks of a fill (its price is in its own outcome's terms). */
function yesTicks(f: FillRecord): number {
  const ticks = Math.round(Number(f.price) * 100);
  return f.outcome === 1 ? ticks : 100 - ticks;
}
