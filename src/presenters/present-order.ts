import type { OrderRecord } from '../ports/order-record';
import { statusReasonOf } from '../ports/status-reasons';

/** The Order record of GET /v1/orders (spec: Order record). Internal fields never leave. */
export function presentOrder(o: OrderRecord): Record<string, unknown> {
  return {
    order_hash: o.order_hash,
    client_order_id: o.client_order_id ?? null,
    condition_id: o.condition_id,
    chain_id: o.chain_id,
    side: o.side,
    outcome: o.outcome,
    order_type: o.order_type,
    post_only: o.post_only === true,
    price: o.price,
    size: o.size,
    remaining_size: o.remaining_size,
    status: o.status,
    status_reason: statusReasonOf(o),
    token_id: o.token_id,
    fee_rate_bps: o.fee_rate_bps,
    expiration: o.expiration,
    book_added_at: o.book_added_at ? new Date(o.book_added_at).toISOString() : null,
    created_at: new Date(o.created_at).toISOString(),
    updated_at: new Date(o.updated_at).toISOString(),
  };
}

/** A success item of POST /v1/orders `results[]` (spec: Placed-order result). */
export function presentPlaced(o: OrderRecord): Record<string, unknown> {
  return {
    order_hash: o.order_hash,
    client_order_id: o.client_order_id ?? null,
    condition_id: o.condition_id,
    chain_id: o.chain_id,
    status: o.status,
    side: o.side,
    outcome: o.outcome,
    price: o.price,
    size: o.size,
    remaining_size: o.remaining_size,
    fills: [],
    book_added_at: null,
    created_at: new Date(o.created_at).toISOString(),
  };
}
