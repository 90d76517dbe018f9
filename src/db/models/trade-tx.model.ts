import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from './model-of';

export const TRADE_TX_STATUSES = ['PENDING', 'CONFIRMED', 'REVERTED', 'NOT_FOUND'] as const;
export type TradeTxStatus = (typeof TRADE_TX_STATUSES)[number];

/** One event of a saved transaction the service understood (conditional tokens, exchange, pool). */
export interface TradeTxEvent {
  log_index: number;
  contract: 'conditional_tokens' | 'exchange' | 'pool';
  name: string;
  condition_id: string | null;
  /** Decoded arguments, numbers as decimal strings. */
  args: Record<string, string>;
}

/**
 * A transaction a platform saved (POST /trade/save), keyed by chain and hash. Its workflow
 * (`trade-tx-{chain_id}-{tx_hash}`) moves it from PENDING to one final status.
 */
export interface TradeTxRecord {
  chain_id: number;
  /** Lower-case 0x hash. */
  tx_hash: string;
  /** Lower-case wallet that must have sent it. */
  wallet: string;
  status: TradeTxStatus;
  /** Why it ended so when that is not plain (e.g. `SENDER_MISMATCH`, `RECEIPT_TIMEOUT`); null otherwise. */
  status_reason: string | null;
  block_number: string | null;
  condition_ids: string[];
  events: TradeTxEvent[];
  /** Trade ids (public trades) the transaction's pool events were recorded as. */
  trade_ids: string[];
  created_at: Date;
  updated_at: Date;
}

/**
 * A trade the service learned from a saved transaction (pool buys and sells), per wallet and
 * outcome: with the wallet's fills it gives positions their average price. One per log.
 */
export interface SavedTradeRecord {
  trade_id: string;
  chain_id: number;
  condition_id: string;
  wallet: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  /** Own-outcome price, canonical decimal. */
  price: string;
  /** Shares, canonical decimal. */
  size: string;
  /** Collateral, canonical decimal. */
  fee: string;
  tx_hash: string;
  created_at: Date;
}

const eventSchema = new Schema<TradeTxEvent>(
  {
    log_index: { type: Number, required: true },
    contract: { type: String, required: true },
    name: { type: String, required: true },
    condition_id: { type: String, default: null },
    args: { type: Schema.Types.Mixed, default: {} },
  },
  { _id: false },
);

const txSchema = new Schema<TradeTxRecord>(
  {
    chain_id: { type: Number, required: true },
    tx_hash: { type: String, required: true },
    wallet: { type: String, required: true },
    status: { type: String, required: true, enum: TRADE_TX_STATUSES },
    status_reason: { type: String, default: null },
    block_number: { type: String, default: null },
    condition_ids: { type: [String], default: [] },
    events: { type: [eventSchema], default: [] },
    trade_ids: { type: [String], default: [] },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);
txSchema.index({ chain_id: 1, tx_hash: 1 }, { unique: true });

const savedTradeSchema = new Schema<SavedTradeRecord>(
  {
    trade_id: { type: String, required: true },
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    wallet: { type: String, required: true },
    outcome: { type: Number, required: true },
    side: { type: String, required: true },
    price: { type: String, required: true },
    size: { type: String, required: true },
    fee: { type: String, default: '0' },
    tx_hash: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
savedTradeSchema.index({ trade_id: 1 }, { unique: true });
savedTradeSchema.index({ wallet: 1, chain_id: 1, condition_id: 1 });

export type TradeTxModel = Model<TradeTxRecord>;
export type SavedTradeModel = Model<SavedTradeRecord>;

export function createTradeTxModel(connection: Connection): TradeTxModel {
  return modelOf(connection, 'TradeTx', txSchema, 'trade_txs');
}

export function createSavedTradeModel(connection: Connection): SavedTradeModel {
  return modelOf(connection, 'SavedTrade', savedTradeSchema, 'saved_trades');
}
