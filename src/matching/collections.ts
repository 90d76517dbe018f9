/**
 * The MongoDB collections the matching layer writes, as native driver collections (bulk writes,
 * guarded upserts). Shapes: src/ports/order-record.ts (orders), src/db/models (book_levels,
 * book_states, tickers, trades, markets, market_status_changes) and FillRecord below (fills).
 */
import type { Connection, mongo } from 'mongoose';

type Collection<T extends mongo.Document> = mongo.Collection<T>;
type Document = mongo.Document;
type Filter<T extends Document> = mongo.Filter<T>;
type WithId<T extends Document> = mongo.WithId<T>;
import type { OrderRecord } from '../ports/order-record';
import { secondaryIndexesUsed } from '../db/index-policy';
import { candlesOf } from '../candles/candle-store';
import type { CandleRow } from '../candles/candle-math';
import { handoffMarkers, type HandoffMarker } from './handoff-markers';
import type { LastStepWrite, StepDecision } from './step-journal';
import { POSITIONS_COLLECTION, type PositionRow } from '../positions/position-rows';

/** Columns the matching layer adds to the order record (not part of the public shape). */
export interface OrderMatchingFields {
  /** The order hash (order entry writes it): the key of every matching read and write. */
  _id?: string;
  /** Engine arrival number while the order rests: rebuilding the book sorts by it (FIFO). */
  engine_arrival?: number | null;
  /** Why the matcher ended the order, on rows written before `status_reason` (read through statusReasonOf). */
  cancel_reason?: string | null;
  /** Base units of this order's fills already settled for good (CONFIRMED or FAILED). */
  settled_units?: string;
  /** `_id`s of this order's fills (src/matching/market-ids.ts fillIdOf), added as it matches. */
  fill_ids?: string[];
}

export type StoredOrder = OrderRecord & OrderMatchingFields;

/** One side of a trade (collection `fills`), `_id` = fillIdOf(trade_id, role), unique on (trade_id, order_hash). */
export interface FillRecord {
  _id?: string;
  trade_id: string;
  order_hash: string;
  wallet: string;
  chain_id: number;
  condition_id: string;
  market_key: string;
  role: 'maker' | 'taker';
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  /** Own-outcome price, canonical decimal. */
  price: string;
  size: string;
  fee: string;
  size_units: string;
  fee_units: string;
  collateral_units: string;
  kind: 'TRANSFER' | 'MINT' | 'MERGE';
  settlement_status: 'PENDING' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED';
  tx_hash: string;
  /** The counterparty order of the trade. */
  counter_order_hash: string;
  /** Batch id of the settlement workflow that settles it (`settlement-{settlement_batch}`). */
  settlement_batch?: string;
  /**
   * Taker fills: the trade's YES price (canonical decimal), for its public print, which is written
   * once the trade settles. Fills written before have none: their trade row was written at the step.
   */
  trade_price?: string;
  /**
   * FAILED because another order of its match failed: its order was put back (a maker rests again,
   * a taker is matched again), so the fill counts neither as settled nor as a failure of its order.
   */
  returned?: boolean;
  created_at: Date;
  updated_at: Date;
}

export type BookLevelRow = Document & { _id?: string };

export interface MatchingCollections {
  orders: Collection<StoredOrder>;
  fills: Collection<FillRecord>;
  /** Public trades, `_id` = trade id: written when a trade settles (CONFIRMED or FAILED). */
  trades: Collection<Document & { _id?: string }>;
  /** `_id` = bookLevelIdOf (src/matching/book-level-ids.ts); rows written before keys have an ObjectId. */
  bookLevels: Collection<BookLevelRow>;
  bookStates: Collection<Document>;
  tickers: Collection<Document>;
  markets: Collection<Document>;
  statusChanges: Collection<Document>;
  handoffs: Collection<HandoffMarker>;
  /** What each placement step decided over, claimed before its writes (src/matching/step-journal.ts). */
  steps: Collection<StepDecision>;
  /** Per market, its last placement step's whole write (src/matching/step-journal.ts). */
  lastSteps: Collection<LastStepWrite>;
  /** Candles of settled trades (src/candles), written as trades confirm. */
  candles: Collection<CandleRow>;
  /** Position rows (src/positions/position-rows.ts), folded as fills are recorded and fail. */
  positions: Collection<PositionRow>;
  /** The store reads its secondary indexes (src/db/index-policy.ts): else only unique ones are made. */
  secondaryIndexes: boolean;
}

export function matchingCollections(connection: Connection): MatchingCollections {
  const db = connection.db;
  if (!db) throw new Error('database not connected');
  return {
    orders: db.collection<StoredOrder>('orders'),
    fills: db.collection<FillRecord>('fills'),
    trades: db.collection<Document & { _id?: string }>('trades'),
    bookLevels: db.collection<BookLevelRow>('book_levels'),
    bookStates: db.collection('book_states'),
    tickers: db.collection('tickers'),
    markets: db.collection('markets'),
    statusChanges: db.collection('market_status_changes'),
    handoffs: handoffMarkers(db),
    steps: db.collection<StepDecision>('market_steps'),
    lastSteps: db.collection<LastStepWrite>('market_last_steps'),
    candles: candlesOf(db),
    positions: db.collection<PositionRow>(POSITIONS_COLLECTION),
    secondaryIndexes: secondaryIndexesUsed(connection),
  };
}

/**
 * Indexes the matching layer's queries and idempotency keys need. Names are prefixed so that they
 * never clash with the owners' indexes; an equivalent index that already exists is fine.
 */
export async function ensureMatchingIndexes(c: MatchingCollections): Promise<void> {
  // `idKey`: a unique key that `_id` already enforces, as every writer inserts with an `_id` made
  // from it (order hash; trade id; fill id from trade id and side). Only secondary-index stores get it.
  const specs: [{ createIndex(keys: Document, options: { unique?: boolean; name: string }): Promise<string> }, Document, { unique?: boolean; name: string; idKey?: true }][] = [
    [c.fills, { trade_id: 1, order_hash: 1 }, { unique: true, name: 'matching_fill_key', idKey: true }],
    [c.fills, { order_hash: 1 }, { name: 'matching_fill_order' }],
    // A run started cold looks up the market's pending taker fills (loadPendingSettlements).
    [c.fills, { market_key: 1, settlement_status: 1, role: 1 }, { name: 'matching_fill_pending' }],
    // Order entry owns the orders collection; its unique hash index has mongoose's default name.
    [c.orders, { order_hash: 1 }, { unique: true, name: 'order_hash_1', idKey: true }],
    [c.orders, { market_key: 1, engine_arrival: 1 }, { name: 'matching_resting' }],
    [c.orders, { handoff: 1, created_at: 1 }, { name: 'matching_handoff' }],
    [c.trades, { trade_id: 1 }, { unique: true, name: 'matching_trade_key', idKey: true }],
    [c.bookLevels, { chain_id: 1, condition_id: 1, side: 1, ticks: 1 }, { unique: true, name: 'matching_level_key' }],
    [c.bookStates, { chain_id: 1, condition_id: 1 }, { unique: true, name: 'matching_book_state_key' }],
    [c.tickers, { chain_id: 1, condition_id: 1 }, { unique: true, name: 'matching_ticker_key' }],
    [c.statusChanges, { change_id: 1 }, { unique: true, name: 'matching_status_change_key' }],
    // A failed fill's position is folded again from its fills (src/positions/position-rows.ts).
    [c.fills, { wallet: 1, condition_id: 1, outcome: 1 }, { name: 'matching_fill_position' }],
  ];
  for (const [collection, keys, { idKey, ...options }] of specs) {
    if ((!options.unique || idKey) && !c.secondaryIndexes) continue;
    try {
      await collection.createIndex(keys, options);
    } catch (error) {
      // An index on the same keys under the owner's name (code 85/86) already does the job.
      const code = (error as { code?: number }).code;
      if (code !== 85 && code !== 86) throw error;
    }
  }
}

/** Duplicate key: a guarded upsert found a newer row (already applied). */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number })?.code === 11000;
}

/** Primary-key lookups per query: FerretDB narrows an `_id: {$in}` of at most 1,000 values by its index. */
export const IDS_PER_QUERY = 500;

/** The documents with these `_id`s (any number), in chunks the store looks up by key. */
export async function findByIds<T extends Document>(collection: Collection<T>, ids: string[]): Promise<WithId<T>[]> {
  const found: WithId<T>[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    found.push(...(await collection.find({ _id: { $in: ids.slice(i, i + IDS_PER_QUERY) } } as Filter<T>).toArray()));
  }
  return found;
}
