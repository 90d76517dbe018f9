import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from '../../db/models/model-of';

/** One order's hold on an asset: base units (bigint decimal string) and when it was taken. */
export interface ReservationHold {
  units: string;
  at: Date;
}

/**
 * What one wallet has reserved of one asset (collateral of a chain, or one outcome token), as a
 * map order_hash -> hold. Writers that add holds use a compare-and-set on `version` (amounts are
 * uint256, beyond what a Mongo numeric `$inc` guard can hold); releases are plain atomic `$unset`s.
 * `_id` = `${chain_id}:${wallet}:${asset}` with asset `collateral:<erc20>` or `token:<token_id>`.
 */
export interface WalletReservationRecord {
  _id: string;
  wallet: string;
  chain_id: number;
  asset: string;
  holds: Record<string, ReservationHold>;
  version: number;
  updated_at: Date;
}

const schema = new Schema<WalletReservationRecord>(
  {
    _id: { type: String, required: true },
    wallet: { type: String, required: true },
    chain_id: { type: Number, required: true },
    asset: { type: String, required: true },
    holds: { type: Schema.Types.Mixed, default: {} },
    version: { type: Number, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
schema.index({ wallet: 1 });

export type WalletReservationModel = Model<WalletReservationRecord>;

export function createWalletReservationModel(connection: Connection): WalletReservationModel {
  return modelOf(connection, 'WalletReservation', schema, 'wallet_reservations');
}
