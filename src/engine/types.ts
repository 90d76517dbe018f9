/**
 * Types of the pure matching engine. Money inside the engine is bigint base units (10^D per share)
 * and integer price ticks (1 tick = 0.01, 1..100); time is unix seconds passed in by the caller.
 */

export type Side = 'BUY' | 'SELL';
/** 1 = YES, 0 = NO. */
export type Outcome = 0 | 1;
/** FOK: fills whole at once or not at all; never rests. */
export type OrderType = 'LIMIT' | 'GTD' | 'MARKET' | 'FOK';
/** Side of the single YES-terms book an order rests on. */
export type BookSide = 'bid' | 'ask';
export type EngineOrderStatus = 'OPEN' | 'PARTIALLY_FILLED' | 'MATCHED' | 'CANCELLED' | 'EXPIRED';
/** TRANSFER: buyer and seller of one outcome; MINT: YES buyer and NO buyer; MERGE: YES seller and NO seller. */
export type TradeKind = 'TRANSFER' | 'MINT' | 'MERGE';
/**
 * MAX_MAKERS_REACHED: the order took as many makers as one settlement may carry
 * (EngineOptions.maxMakersPerTaker) and still crossed the book, so its remainder could not rest.
 * POST_ONLY_WOULD_CROSS: a post-only order met a maker it would take. FOK_NOT_FILLED: an FOK order
 * could not fill whole at once; neither traded.
 */
export type CancelReason =
  | 'USER' | 'SELF_TRADE' | 'MARKET_REMAINDER' | 'MAX_MAKERS_REACHED' | 'MARKET_CLOSED' | 'OPERATOR' | 'POST_ONLY_WOULD_CROSS' | 'FOK_NOT_FILLED';

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** A signed order as the engine needs it (already verified by the API layer). */
export interface EngineOrder {
  hash: string;
  /** Maker (= signer) address; compared case-insensitively. */
  maker: string;
  /** Counterparty restriction; ZERO_ADDRESS for an open order. */
  taker: string;
  side: Side;
  outcome: Outcome;
  orderType: OrderType;
  /** Price of the traded outcome in ticks, 1..100, as signed. For MARKET: the worst acceptable price. */
  price: number;
  /** Size S in base units of the outcome token; at least LOT_SIZE, any number of base units (fills are whole lots). */
  size: bigint;
  /** Signed amounts: BUY makerAmount = ceil(S*T/100), takerAmount = S; SELL makerAmount = S, takerAmount = floor(S*T/100). */
  makerAmount: bigint;
  takerAmount: bigint;
  /** Unix seconds; 0 = none. */
  expiration: number;
  feeRateBps: number;
  /** LIMIT and GTD only: the order must add liquidity; one that would take is cancelled instead. */
  postOnly?: boolean;
}

/** State of an order the engine holds (resting on the book). */
export interface OrderState {
  hash: string;
  maker: string;
  side: Side;
  outcome: Outcome;
  orderType: OrderType;
  price: number;
  bookSide: BookSide;
  /** Book price in YES terms. */
  yesPrice: number;
  size: bigint;
  remaining: bigint;
  filled: bigint;
  status: EngineOrderStatus;
  /** Arrival sequence: FIFO key within a price level. */
  arrival: number;
}

/** One order's part of a trade, in that order's own outcome terms. */
export interface FillLeg {
  orderHash: string;
  maker: string;
  side: Side;
  outcome: Outcome;
  /** Execution price in ticks of this order's outcome (NO: 100 - YES price). */
  price: number;
  /** Outcome tokens bought or sold, base units; always a multiple of LOT_SIZE. */
  size: bigint;
  /** Collateral paid (BUY) or received (SELL): size * price / 100, exact. */
  collateral: bigint;
  /** floor(feeRateBps * min(price, 100 - price) * size / 1_000_000), collateral base units. */
  fee: bigint;
}

export interface LevelChange {
  side: BookSide;
  /** YES price ticks. */
  price: number;
  /** New total remaining at that level (0 = level gone). */
  remaining: bigint;
}

export type EngineEvent =
  | { type: 'ORDER_RESTED'; seq: number; at: number; orderHash: string; bookSide: BookSide; yesPrice: number; status: EngineOrderStatus; remaining: bigint; filled: bigint }
  | { type: 'TRADE'; seq: number; at: number; tradeId: string; kind: TradeKind; yesPrice: number; size: bigint; maker: FillLeg; taker: FillLeg }
  | { type: 'ORDER_UPDATED'; seq: number; at: number; orderHash: string; status: EngineOrderStatus; remaining: bigint; filled: bigint }
  | { type: 'ORDER_CANCELLED'; seq: number; at: number; orderHash: string; reason: CancelReason; status: 'CANCELLED'; remaining: bigint; filled: bigint }
  | { type: 'ORDER_EXPIRED'; seq: number; at: number; orderHash: string; status: 'EXPIRED'; remaining: bigint; filled: bigint }
  | { type: 'BOOK_LEVEL_CHANGED'; seq: number; at: number; bookSeq: number; side: BookSide; price: number; remaining: bigint };

export type EngineEventType = EngineEvent['type'];

export interface DepthLevel {
  price: number;
  remaining: bigint;
}

export interface Depth {
  /** Book sequence the snapshot is consistent with; deltas carry bookSeq > this. */
  seq: number;
  /** Descending YES price. */
  bids: DepthLevel[];
  /** Ascending YES price. */
  asks: DepthLevel[];
}

/** An order to put back (Engine.reinstate): `returned` base units of its filled go back to its remaining. */
export interface Reinstatement {
  order: EngineOrder;
  returned: bigint;
  /** Its state when it is not on the book: filled and remaining as stored, and its arrival (null or absent: it never rested). */
  known?: { filled: bigint; remaining: bigint; arrival?: number | null };
}

export interface CancelFilter {
  maker?: string;
  side?: Side;
  outcome?: Outcome;
}

export interface EngineOptions {
  /** Prefix of trade ids, e.g. the market workflow id. */
  marketId: string;
  /** Most makers one incoming order may trade with; default MAX_MAKERS_PER_TAKER. */
  maxMakersPerTaker?: number;
}

/**
 * Most makers one taker trades with. All of a taker's makers settle in one `matchOrders` call (the
 * exchange settles an order as a taker once), budgeted 200k gas each: 64 keep that call within one
 * batch transaction's 15M gas, under the 2^24 per-transaction cap of newer forks
 * (src/chain/submit-match-batches.ts; a test ties the two).
 */
export const MAX_MAKERS_PER_TAKER = 64;
