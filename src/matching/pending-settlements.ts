/**
 * Settlement batches found again from their fills. A market run keeps the trades it wrote and has
 * not handed to a settlement child yet in memory (and in its continue-as-new input); a run that is
 * terminated loses them, while their fills stay PENDING naming their batch (`settlement_batch`).
 * A run started cold finds them here and starts their settlement (docs/matching.md, Recovery).
 */
import type { FillRecord } from './collections';

/** A batch as a run carries it: its id, and `[trade id, taker order hash]` per trade in trade order. */
export interface CarriedSettlement {
  batchId: string;
  trades: [string, string][];
  /** Found from its fills (a child may be settling it already): carried over as found, never joined. */
  found?: boolean;
}

/** Most trades one page returns (~150 bytes each in the run's history: ~750 KB, far below 2 MB). */
export const MAX_FOUND_TRADES = 5_000;

/** A trade's sequence number in its market (trade ids are `{market key}:{seq}`). */
function tradeSeqOf(tradeId: string): number {
  return Number(tradeId.slice(tradeId.lastIndexOf(':') + 1));
}

/** One page of found batches; `next`: the first trade number of the batches after it (null: none). */
export interface PendingSettlementsPage {
  batches: CarriedSettlement[];
  next: number | null;
}

/**
 * The batches of `fills` (taker fills still PENDING) whose first trade is numbered `from` or later,
 * each with its trades in trade order, oldest batch first: as many whole batches as fit in
 * `maxTrades` trades (the first whatever its size), and where the next page starts.
 */
export function batchesOfPendingTakerFills(
  fills: Pick<FillRecord, 'trade_id' | 'order_hash' | 'settlement_batch'>[],
  from = 0,
  maxTrades = MAX_FOUND_TRADES,
): PendingSettlementsPage {
  const byBatch = new Map<string, [string, string][]>();
  for (const f of fills) {
    if (!f.settlement_batch) continue; // written before fills named their batch
    const trades = byBatch.get(f.settlement_batch) ?? [];
    trades.push([f.trade_id, f.order_hash]);
    byBatch.set(f.settlement_batch, trades);
  }
  const all = [...byBatch]
    .map(([batchId, trades]) => ({ batchId, trades: trades.sort((a, b) => tradeSeqOf(a[0]) - tradeSeqOf(b[0])) }))
    .filter((b) => tradeSeqOf(b.trades[0][0]) >= from)
    .sort((a, b) => tradeSeqOf(a.trades[0][0]) - tradeSeqOf(b.trades[0][0]));
  const batches: CarriedSettlement[] = [];
  let taken = 0;
  for (const b of all) {
    if (batches.length > 0 && taken + b.trades.length > maxTrades) return { batches, next: tradeSeqOf(b.trades[0][0]) };
    batches.push(b);
    taken += b.trades.length;
  }
  return { batches, next: null };
}
