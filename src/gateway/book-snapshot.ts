import type { Connection } from 'mongoose';
import { createBookLevelModel, createBookStateModel } from '../db/models';
import { formatCanonical } from '../money';
import type { MarketRef } from './market-directory';

export interface BookLevel {
  price: string;
  remainingSize: string;
}

export interface BookSnapshot {
  seq: number;
  bids: BookLevel[];
  asks: BookLevel[];
}

/** Reads a market's full book (every level, best first) with the seq it reflects. */
export interface BookSnapshotReader {
  read(market: MarketRef, decimals: number): Promise<BookSnapshot>;
}

/**
 * Reads `book_states` (the seq) and `book_levels` (written by the market's matcher,
 * docs/data-model.md). Without transactions the two reads can straddle a write, so the seq is
 * read before and after the levels and the read is retried until both agree. If they keep
 * moving, the earlier seq is used: levels may then already include some later deltas, which is
 * harmless because a delta sets a level's absolute size, so replaying it converges.
 */
export function createBookSnapshotReader(db: Connection, attempts = 3): BookSnapshotReader {
  const levels = createBookLevelModel(db);
  const states = createBookStateModel(db);
  const seqOf = async (market: MarketRef) =>
    (await states.findOne({ chain_id: market.chain_id, condition_id: market.condition_id }, { seq: 1 }).lean())?.seq ?? 0;

  return {
    async read(market, decimals) {
      let snapshot: BookSnapshot | undefined;
      for (let i = 0; i < attempts; i += 1) {
        const before = await seqOf(market);
        const rows = await levels.find({ chain_id: market.chain_id, condition_id: market.condition_id }, { side: 1, price: 1, ticks: 1, remaining: 1 }).lean();
        const after = await seqOf(market);
        const level = (r: (typeof rows)[number]): BookLevel => ({ price: r.price, remainingSize: formatCanonical(BigInt(r.remaining), decimals) });
        const live = rows.filter((r) => BigInt(r.remaining) > 0n);
        snapshot = {
          seq: before,
          bids: live.filter((r) => r.side === 'BID').sort((a, b) => b.ticks - a.ticks).map(level),
          asks: live.filter((r) => r.side === 'ASK').sort((a, b) => a.ticks - b.ticks).map(level),
        };
        if (before === after) break;
      }
      return snapshot as BookSnapshot;
    },
  };
}
