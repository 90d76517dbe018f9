/**
 * Who a settlement batch settles: every order and wallet of its trades, for the batch workflow's
 * `OrderHashes` and `Wallets` search attributes (src/temporal/search-attributes.ts).
 */
import { findByIds, type MatchingCollections } from '../src/matching/collections';
import { fillIdOf, fillIdsOf } from '../src/matching/market-ids';
import { listWithin } from '../src/temporal/search-attributes';

export interface SettlementParties {
  /** The batch's orders, each trade's taker then its maker, once each, lower-case. */
  orderHashes: string[];
  /** Their wallets, in the same order, once each. */
  wallets: string[];
  /** Orders and wallets past the search attribute size bound (their fills still name the batch). */
  leftOff: number;
}

export function createSettlementPartyActivities({ collections }: { collections: MatchingCollections }) {
  /** Reads the fills of `tradeIds` (both sides of each trade); a trade without its fills is skipped. */
  async function settlementPartiesOf(q: { tradeIds: string[] }): Promise<SettlementParties> {
    const fills = await findByIds(collections.fills, fillIdsOf(q.tradeIds));
    const byId = new Map(fills.map((f) => [fillIdOf(f.trade_id, f.role), f]));
    const sides = q.tradeIds.flatMap((t) => [byId.get(fillIdOf(t, 'taker')), byId.get(fillIdOf(t, 'maker'))]).filter((f) => f !== undefined);
    const orders = listWithin(sides.map((f) => f.order_hash.toLowerCase()));
    const wallets = listWithin(sides.map((f) => f.wallet.toLowerCase()));
    return { orderHashes: orders.list, wallets: wallets.list, leftOff: orders.leftOff + wallets.leftOff };
  }
  return { settlementPartiesOf };
}

export type SettlementPartyActivities = ReturnType<typeof createSettlementPartyActivities>;
