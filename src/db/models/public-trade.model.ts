import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from './model-of';

export const TRADE_SETTLEMENT_STATUSES = ['PENDING', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED'] as const;
export type TradeSettlementStatus = (typeof TRADE_SETTLEMENT_STATUSES)[number];

/**
 * One public print (a matched bid/ask pair), YES terms, no direction. Written by the matcher at
 * match time and updated by settlement; GET /trades shows CONFIRMED rows only ("settled prints").
 */
export interface PublicTradeRecord {
  trade_id: string;
  chain_id: number;
  condition_id: string;
  /** YES price, canonical decimal string. */
  price: string;
  /** Size in base units (10^D per share), decimal string. */
  size: string;
  settlement_status: TradeSettlementStatus;
  created_at: Date;
}

const schema = new Schema<PublicTradeRecord>(
  {
    trade_id: { type: String, required: true },
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    price: { type: String, required: true },
    size: { type: String, required: true },
    settlement_status: { type: String, required: true, enum: TRADE_SETTLEMENT_STATUSES },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ trade_id: 1 }, { unique: true });
schema.index({ chain_id: 1, condition_id: 1, settlement_status: 1, created_at: -1, trade_id: -1 });

export type PublicTradeModel = Model<PublicTradeRecord>;

export function createPublicTradeModel(connection: Connection): PublicTradeModel {
  return modelOf(connection, 'PublicTrade', schema, 'trades');
}
