/** The market's rows of a step: book levels, the public book seq and the ticker. */
import type { mongo } from 'mongoose';
import { bulk, bulkCounts } from '../../src/db/bulk-writes';
import { bookLevelIdOf } from '../../src/matching/book-level-ids';
import { timed } from '../../src/logging/stage-timings';
import type { BatchWrite } from '../../src/matching/payloads';
import { priceOfTicks } from '../../src/presenters/present-ticker';
import type { BookLevelRow } from '../../src/matching/collections';
import type { MarketContext } from './context';

export function createMarketRowWrites({ c }: MarketContext) {
  /**
   * The market's rows of a step: book levels (final value per level), then the public book seq
   * (readers pair it with the levels), and beside them the ticker. They touch no order or fill, so
   * they are written beside the step's fills and orders instead of after them: the step (and the
   * next step, which waits for it) is shorter by these round trips. Every write is guarded by its
   * seq, so a retried step rewrites nothing newer.
   */
  async function writeMarketRows(batch: BatchWrite, at: Date): Promise<void> {
    const filter = { chain_id: batch.market.chain_id, condition_id: batch.market.condition_id };
    const levels = new Map<string, { side: 'bid' | 'ask'; price: number; remaining: string; bookSeq: number }>();
    for (const delta of batch.book) {
      for (const ch of delta.changes) levels.set(`${ch.side}:${ch.price}`, { ...ch, bookSeq: delta.bookSeq });
    }
    const bookWritten = (async () => {
      // An emptied level stays as a row of remaining '0' with its seq (readers skip those), not
      // deleted: a late write of an earlier step (a stale attempt still running) would otherwise
      // find no newer row to lose to and insert the old level again (a phantom level). At most
      // one row per side and tick, written by its key (src/matching/book-level-ids.ts).
      const rows = [...levels.values()].map((l) => ({ ...l, side: l.side === 'bid' ? 'BID' as const : 'ASK' as const }));
      const set = (l: (typeof rows)[number]) => ({ $set: { price: priceOfTicks(l.price), remaining: l.remaining, seq: l.bookSeq } });
      const keyed = await timed('step.levels', () => bulkCounts(c.bookLevels, rows.map((l): mongo.AnyBulkWriteOperation<BookLevelRow> => ({
        updateOne: {
          filter: { _id: bookLevelIdOf(filter.chain_id, filter.condition_id, l.side, l.price), seq: { $lt: l.bookSeq } },
          update: { ...set(l), $setOnInsert: { ...filter, side: l.side, ticks: l.price } },
          upsert: true,
        },
      }))));
      // A write that neither matched nor inserted met a newer row (a retried or stale step), or a
      // row written before levels had keys: those go again by the level's fields, guarded alike.
      if (keyed.matched + keyed.upserted < rows.length) {
        await timed('step.levelsByFields', () => bulkCounts(c.bookLevels, rows.map((l): mongo.AnyBulkWriteOperation<BookLevelRow> => ({
          updateOne: { filter: { ...filter, side: l.side, ticks: l.price, seq: { $lt: l.bookSeq } }, update: set(l), upsert: true },
        }))));
      }
      await c.bookStates.updateOne(filter, { $max: { seq: batch.counters.bookSeq }, $set: { updated_at: at } });
    })();
    const t = batch.ticker;
    const price = (ticks: number | null) => (ticks === null ? null : priceOfTicks(ticks));
    const tickerWritten = t
      ? bulk(c.tickers, [{
        updateOne: {
          filter: { ...filter, $or: [{ ticker_seq: { $lt: t.seq } }, { ticker_seq: { $exists: false } }] },
          update: { $set: { best_bid: price(t.bestBid), best_ask: price(t.bestAsk), last_price: price(t.lastPrice), ticker_seq: t.seq, updated_at: at } },
          upsert: true,
        },
      }])
      : undefined;
    await Promise.all([bookWritten, tickerWritten]);
  }

  return { writeMarketRows };
}
