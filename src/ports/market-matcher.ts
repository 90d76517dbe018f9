/**
 * The hand-off from the API to a market's workflow. Order entry persists orders (handoff PENDING)
 * first, then calls `submit`; the workflow is the only writer of what happens next. Implemented by
 * the Temporal client side of the market workflow (src/temporal/), faked only in unit tests.
 */
import type { StatusReason } from './status-reasons';

export interface MarketRef {
  chain_id: number;
  condition_id: string;
}

export interface CancelOutcome {
  cancelled: string[];
  /** `order_hash` is null for a `client_order_id` no order of the wallet carries. */
  not_cancelled: { order_hash: string | null; client_order_id?: string; error: { code: 'ORDER_NOT_FOUND' | 'ORDER_ALREADY_FILLED' | 'ORDER_NOT_OPEN' | 'SERVICE_DEGRADED'; message: string } }[];
  /** Cancel by filter or all: more live orders matched than one request ends (send it again). */
  has_more?: boolean;
}

/**
 * Holds a market's hand-offs for up to `ms` (0 or less: sends what waits now; see HandoffHoldEvent).
 * A signal already in flight still lands; later submits wait and go out together when the hold ends.
 */
export interface HandoffHolder {
  hold(market: MarketRef, ms: number): void;
}

export interface MarketMatcher {
  /**
   * Hands persisted orders (by hash) to the market's workflow. Resolves once the workflow has
   * durably received them (not when matched). Safe to call twice for the same hash.
   */
  submit(market: MarketRef, orderHashes: string[]): Promise<void>;
  /**
   * Says that orders of this market are being persisted and will be submitted shortly. The
   * returned function withdraws that (once; call it just before the submit, or when nothing will
   * be submitted). A market's next hand-off may wait for announced orders, a few ms at most, so
   * that concurrent requests share one signal and one market step.
   */
  announce(market: MarketRef): () => void;
  /**
   * Cancels through the workflow so that a cancel racing a match has exactly one winner. `reason`:
   * the orders' `status_reason` (src/orders/status-reasons.ts), USER_CANCEL by default.
   */
  cancel(market: MarketRef, wallet: string, orderHashes: string[], reason?: StatusReason): Promise<CancelOutcome>;
  /** Operator status change (PAUSED, OPEN, CLOSED, RESOLVED); applied by the workflow. */
  setStatus(market: MarketRef, change: { status: string; resolution_outcome?: 0 | 1; actor: string }): Promise<void>;
}
