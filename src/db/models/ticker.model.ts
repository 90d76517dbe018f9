import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from './model-of';

/**
 * The ticker cache of one market, in YES terms, upserted by the matcher after every book change
 * or trade. Derived values (spread, display prices) are computed by the API from these three.
 */
export interface TickerRecord {
  chain_id: number;
  condition_id: string;
  best_bid: string | null;
  best_ask: string | null;
  last_price: string | null;
  updated_at: Date;
}

const schema = new Schema<TickerRecord>(
  {
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    best_bid: { type: String, default: null },
    best_ask: { type: String, default: null },
    last_price: { type: String, default: null },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ chain_id: 1, condition_id: 1 }, { unique: true });

export type TickerModel = Model<TickerRecord>;

export function createTickerModel(connection: Connection): TickerModel {
  return modelOf(connection, 'Ticker', schema, 'tickers');
}
