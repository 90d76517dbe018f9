/**
 * Why an order ended (`status_reason` on Order records and `user` order events, decisions section
 * 4): null while it lives and when it ends FILLED or MATCHED; one of these codes when it ends
 * CANCELLED, EXPIRED or MATCH_FAILED. The one list: docs/orders.md shows it, the OpenAPI schema
 * enumerates it. Pure (no imports): the market workflow uses it too.
 */
export const STATUS_REASONS = {
  USER_CANCEL: 'its owner cancelled it (POST /v1/orders/cancel: by hash, filter or all)',
  MARKET_CLOSED: 'its market closed',
  MARKET_RESOLVED: 'its market resolved',
  MARKET_NOT_ACTIVE: 'it reached a market that was paused or not open for trading yet',
  MARKET_REMAINDER: 'a MARKET order\'s part the book could not fill at once',
  SELF_TRADE: 'a newer order of the same wallet crossed it (self-trade prevention cancels the resting one)',
  MAX_MAKERS_REACHED: 'it took as many makers as one settlement carries and still crossed the book',
  ONCHAIN_CANCEL: 'its owner cancelled it on the exchange contract',
  NONCE_BUMPED: 'its owner raised the wallet\'s nonce on the exchange contract past the order\'s',
  BALANCE_CHANGED: 'the wallet\'s balance or allowance on chain fell below what its orders need',
  SIGNATURE_REFUSED: 'its contract wallet (EIP-1271) no longer accepted the order\'s signature when it settled',
  TOKENS_REFUSED: 'its contract wallet refused the outcome tokens it bought (ERC-1155 receiver hook)',
  GAS_BURNED: 'its contract wallet ran out of the gas the exchange gives a wallet call, when it settled',
  POST_ONLY_WOULD_CROSS: 'a post-only order would have taken liquidity',
  FOK_NOT_FILLED: 'a fill-or-kill order could not fill entirely at once',
  HEARTBEAT_EXPIRED: 'the wallet\'s dead-man switch ran out',
  EXPIRED: 'its expiration passed',
  INVALID_ORDER: 'the matcher found the stored order unusable (it never traded)',
  SETTLEMENT_FAILED: 'a fill of it failed settlement for good',
} as const;

export type StatusReason = keyof typeof STATUS_REASONS;
export const STATUS_REASON_CODES = Object.keys(STATUS_REASONS) as StatusReason[];

/** Codes the matcher's older writes carry (engine cancel reasons, earlier removal names). */
const LEGACY: Record<string, StatusReason> = { USER: 'USER_CANCEL', NONCE_BUMP: 'NONCE_BUMPED' };

export function isStatusReason(code: unknown): code is StatusReason {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(STATUS_REASONS, code);
}

const ENDED_WITH_REASON = ['CANCELLED', 'EXPIRED', 'MATCH_FAILED'];

/**
 * The public code for what a writer says ended the order (`reason`: a code of the list, or an
 * older name of one), given the status it ended in. Null for a status that carries none; a
 * status that needs one and has nothing known gets its status's default.
 */
export function statusReasonFor(status: string, reason: string | null | undefined): StatusReason | null {
  if (!ENDED_WITH_REASON.includes(status)) return null;
  if (isStatusReason(reason)) return reason;
  if (reason && LEGACY[reason]) return LEGACY[reason];
  if (status === 'EXPIRED') return 'EXPIRED';
  if (status === 'MATCH_FAILED') return 'SETTLEMENT_FAILED';
  return 'USER_CANCEL';
}

/**
 * An order row's `status_reason` as read: the stored one, or for a row written before the field
 * existed, derived from its `cancel_reason` and status.
 */
export function statusReasonOf(o: { status: string; status_reason?: string | null; cancel_reason?: string | null }): StatusReason | null {
  return statusReasonFor(o.status, o.status_reason ?? o.cancel_reason);
}
