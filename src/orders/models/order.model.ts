import { Connection, Model, Schema } from 'mongoose';
import type { OrderRecord } from '../../ports/order-record';
import { modelOf } from '../../db/models/model-of';
import { sameAsId } from '../../db/index-policy';
import { STATUS_REASON_CODES } from '../../ports/status-reasons';

const ORDER_STATUSES = ['OPEN', 'PARTIALLY_FILLED', 'MATCHED', 'FILLED', 'CANCELLED', 'EXPIRED', 'MATCH_FAILED'];

/** `_id` is the order hash too: lookups by hash then hit the primary key on every backend (FerretDB included). */
export type StoredOrderDocument = OrderRecord & { _id: string };

const schema = new Schema<StoredOrderDocument>(
  {
    _id: { type: String, required: true },
    order_hash: { type: String, required: true },
    wallet: { type: String, required: true },
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    market_key: { type: String, required: true },
    side: { type: String, required: true, enum: ['BUY', 'SELL'] },
    outcome: { type: Number, required: true, enum: [0, 1] },
    order_type: { type: String, required: true, enum: ['LIMIT', 'MARKET', 'GTD', 'FOK'] },
    price: { type: String, required: true },
    price_ticks: { type: Number, required: true },
    size: { type: String, required: true },
    size_units: { type: String, required: true },
    remaining_size: { type: String, required: true },
    remaining_units: { type: String, required: true },
    filled_units: { type: String, required: true },
    status: { type: String, required: true, enum: ORDER_STATUSES },
    status_reason: { type: String, default: null, enum: [...STATUS_REASON_CODES, null] },
    book_added_at: { type: Date, default: null },
    salt: { type: String, required: true },
    maker: { type: String, required: true },
    signer: { type: String, required: true },
    taker: { type: String, required: true },
    token_id: { type: String, required: true },
    maker_amount: { type: String, required: true },
    taker_amount: { type: String, required: true },
    expiration: { type: String, required: true },
    nonce: { type: String, required: true },
    fee_rate_bps: { type: Number, required: true },
    signature_type: { type: Number, required: true, enum: [0, 1] },
    signature: { type: String, required: true },
    client_order_id: { type: String, default: null },
    post_only: { type: Boolean, default: false },
    reserved_units: { type: String, required: true },
    handoff: { type: String, required: true, enum: ['PENDING', 'ACCEPTED'] },
    applied_seq: { type: Number, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// One document per signed order, across every API process: a replayed order is a duplicate-key error.
schema.index({ order_hash: 1 }, { unique: true });
// Orders are inserted with `_id` = order hash (placement-writes.ts): `_id` already refuses a replay.
sameAsId(schema, 'order_hash');
// Private reads: the wallet's orders newest first with order_hash as tie-breaker.
schema.index({ wallet: 1, created_at: -1, order_hash: -1 });
// Cancel-by-filter/all and reservation repair read the wallet's live orders.
schema.index({ wallet: 1, status: 1 });
// GET /v1/orders?client_order_id= and cancel by client_order_ids.
schema.index({ wallet: 1, client_order_id: 1 });
// The matcher's recovery re-sends orders whose hand-off is still PENDING.
schema.index({ market_key: 1, handoff: 1 });

export type OrderModel = Model<StoredOrderDocument>;

/** The `orders` collection (src/ports/order-record.ts), registered on `connection`. */
export function createOrderModel(connection: Connection): OrderModel {
  return modelOf(connection, 'Order', schema, 'orders');
}
