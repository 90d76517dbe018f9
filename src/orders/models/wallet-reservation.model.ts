import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from '../../db/models/model-of';

/** One order's hold on an asset: base units (bigint decimal string) and when it was taken. */
export interface ReservationHold {
  units: string;
  at: Date;
}

/**
 * One immutable version of what a wallet holds of one asset (collateral of a chain, or one
 * outcome token): the map order_hash -> hold. A writer reads the newest version N and inserts
 * version N+1; `_id` = `${key}:${N+1}` is unique, so of two racing writers exactly one wins and the
 * other re-reads. Only inserts decide (FerretDB's findOneAndUpdate is not atomic under load).
 * `key` = `${chain_id}:${wallet}:${asset}` with asset `collateral:<erc20>` or `token:<token_id>`.
 */
export interface WalletReservationRecord {
  _id: string;
  key: string;
  wallet: string;
  chain_id: number;
  asset: string;
  version: number;
  holds: Record<string, ReservationHold>;
  created_at: Date;
}

const schema = new Schema<WalletReservationRecord>(
  {
    _id: { type: String, required: true },
    key: { type: String, required: true },
    wallet: { type: String, required: true },
    chain_id: { type: Number, required: true },
    asset: { type: String, required: true },
    version: { type: Number, required: true },
    holds: { type: Schema.Types.Mixed, default: {} },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ key: 1, version: -1 });
schema.index({ wallet: 1, version: -1 });

export type WalletReservationModel = Model<WalletReservationRecord>;

export function createWalletReservationModel(connection: Connection): WalletReservationModel {
  return modelOf(connection, 'WalletReservation', schema, 'wallet_reservations');
}
