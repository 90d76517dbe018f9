import { Connection, Model, Schema } from 'mongoose';
import { MARKET_STATUSES, MarketStatus } from './market.model';
import { modelOf } from './model-of';

/** Audit trail: one row per applied change of a market's status, with who and when. */
export interface MarketStatusChangeRecord {
  change_id: string;
  chain_id: number;
  condition_id: string;
  from_status: MarketStatus | null;
  to_status: MarketStatus;
  resolution_outcome: 0 | 1 | null;
  /** Operator name given by the caller (x-operator header, CLI $OPS_OPERATOR), else "admin". */
  actor: string;
  /** Which path applied it: "admin-api", "seed", later "market-workflow". */
  via: string;
  at: Date;
}

const schema = new Schema<MarketStatusChangeRecord>(
  {
    change_id: { type: String, required: true },
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    from_status: { type: String, enum: [...MARKET_STATUSES, null], default: null },
    to_status: { type: String, required: true, enum: MARKET_STATUSES },
    resolution_outcome: { type: Number, default: null },
    actor: { type: String, required: true },
    via: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ change_id: 1 }, { unique: true });
schema.index({ chain_id: 1, condition_id: 1, at: -1 });

export type MarketStatusChangeModel = Model<MarketStatusChangeRecord>;

export function createMarketStatusChangeModel(connection: Connection): MarketStatusChangeModel {
  return modelOf(connection, 'MarketStatusChange', schema, 'market_status_changes');
}
