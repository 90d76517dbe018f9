import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from './model-of';

export type BookSide = 'BID' | 'ASK';

/**
 * One price level of a market's book, in YES terms, written by the market's matcher
 * (docs/data-model.md). A level with nothing left is deleted by the writer.
 */
export interface BookLevelRecord {
  chain_id: number;
  condition_id: string;
  side: BookSide;
  /** YES price as a canonical decimal string ("0.42"). */
  price: string;
  /** The same price in ticks (1..99), the sort key. */
  ticks: number;
  /** Resting size at this level in base units (10^D per share), decimal string. */
  remaining: string;
  /** The market's book seq at the level's last change. */
  seq: number;
}

/** One row per market: the book's sequence number, bumped by one per book change. */
export interface BookStateRecord {
  chain_id: number;
  condition_id: string;
  seq: number;
  updated_at: Date;
}

const levelSchema = new Schema<BookLevelRecord>(
  {
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    side: { type: String, required: true, enum: ['BID', 'ASK'] },
    price: { type: String, required: true },
    ticks: { type: Number, required: true },
    remaining: { type: String, required: true },
    seq: { type: Number, required: true },
  },
  { versionKey: false },
);
levelSchema.index({ chain_id: 1, condition_id: 1, side: 1, ticks: 1 }, { unique: true });

const stateSchema = new Schema<BookStateRecord>(
  {
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    seq: { type: Number, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);
stateSchema.index({ chain_id: 1, condition_id: 1 }, { unique: true });

export type BookLevelModel = Model<BookLevelRecord>;
export type BookStateModel = Model<BookStateRecord>;

export function createBookLevelModel(connection: Connection): BookLevelModel {
  return modelOf(connection, 'BookLevel', levelSchema, 'book_levels');
}

export function createBookStateModel(connection: Connection): BookStateModel {
  return modelOf(connection, 'BookState', stateSchema, 'book_states');
}
