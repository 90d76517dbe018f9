/**
 * The persisted order (collection `orders`), shared by order entry (writes it at placement), the
 * market workflow's activities (move its status), settlement and the read routes. Money fields are
 * decimal strings: `*_units` are bigint base units (10^D per share), the rest are the wire values.
 * One document per order hash (unique index): the same signed order can never rest twice.
 */
import type { StatusReason } from './status-reasons';

export type OrderStatus = 'OPEN' | 'PARTIALLY_FILLED' | 'MATCHED' | 'FILLED' | 'CANCELLED' | 'EXPIRED' | 'MATCH_FAILED';
export const TERMINAL_STATUSES: readonly OrderStatus[] = ['FILLED', 'CANCELLED', 'EXPIRED', 'MATCH_FAILED'];

/** Whether the market workflow has taken the order (recovery re-sends PENDING ones). */
export type HandoffState = 'PENDING' | 'ACCEPTED';

export interface OrderRecord {
  order_hash: string; // 0x-prefixed, lower-case: the exchange contract's EIP-712 hash
  wallet: string; // lower-case maker (= signer) address: every private read filters on it
  chain_id: number;
  condition_id: string;
  /** `${chain_id}-${condition_id}`: the market workflow id is `market-${market_key}`. */
  market_key: string;
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  order_type: 'LIMIT' | 'MARKET' | 'GTD' | 'FOK';
  price: string; // decimal, canonical ("0.5")
  price_ticks: number; // 1..100
  size: string; // decimal shares, canonical
  size_units: string;
  remaining_size: string; // decimal shares
  remaining_units: string;
  filled_units: string;
  status: OrderStatus;
  /**
   * Why the order ended (src/orders/status-reasons.ts): null while it lives and when FILLED or
   * MATCHED. Absent on rows written before the field: read through `statusReasonOf`.
   */
  status_reason?: StatusReason | null;
  book_added_at: Date | null;
  // The signed order, exactly as signed (decimal strings for uint256 values).
  salt: string;
  maker: string;
  signer: string;
  taker: string;
  token_id: string;
  maker_amount: string;
  taker_amount: string;
  expiration: string; // unix seconds, "0" = none
  nonce: string;
  fee_rate_bps: number;
  signature_type: 0 | 1;
  signature: string;
  /** The trader's own id for the order (unique among the wallet's live orders), null when none was given. */
  client_order_id?: string | null;
  /** The order may only add liquidity (LIMIT and GTD); absent on orders stored before the field. */
  post_only?: boolean;
  /** Collateral (BUY) or outcome tokens (SELL) this order still reserves, base units. */
  reserved_units: string;
  handoff: HandoffState;
  /** Highest engine event seq applied to this record: activities skip older or repeated writes. */
  applied_seq: number;
  created_at: Date;
  updated_at: Date;
}
