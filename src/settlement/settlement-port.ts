/**
 * What settlement needs from the chain. The chain module (src/chain) provides the real one (viem,
 * the market's exchange contract); tests use a deterministic fake. Implementations throw
 * `SettlementChainError` with `transient` telling whether a retry may succeed.
 */
import type { OrderRecord } from '../ports/order-record';

export interface SettlementLeg {
  order: OrderRecord;
  /** Outcome tokens of this leg, base units. */
  size: string;
  /** Collateral paid or received by this leg, base units. */
  collateral: string;
  fee: string;
}

export interface SettlementTrade {
  tradeId: string;
  kind: 'TRANSFER' | 'MINT' | 'MERGE';
  /** YES ticks. */
  yesPrice: number;
  size: string;
  taker: SettlementLeg;
  maker: SettlementLeg;
}

export interface SettlementBatch {
  batchId: string;
  /** 1 for the first send, +1 per retry (lets the implementation bump gas or nonce). */
  attempt: number;
  chain_id: number;
  exchange: string;
  trades: SettlementTrade[];
}

export type ReceiptState =
  | { status: 'pending' }
  | {
    status: 'success' | 'reverted'; blockNumber: string; confirmations: number;
    /**
     * The taker orders whose match this transaction settled (lower case), when the chain tells:
     * a transaction of `submitMatches(..., { together: true })` may carry matches refused inside it.
     * Absent: every match of a successful transaction settled.
     */
    matchedTakers?: string[];
    /** The taker orders whose match this transaction refused, with the contract's reason ('' when none: out of gas). */
    refusedTakers?: { taker: string; reason: string }[];
  };

export interface SubmitOptions {
  /**
   * Several batches per transaction (the exchange's `matchOrdersBatch`), sent without a pre-run:
   * batches then share a transaction hash, and the receipt's `matchedTakers` and `refusedTakers`
   * tell which of them settled in it and why the others did not.
   */
  together?: boolean;
}

export interface SettlementChain {
  /** Confirmations after which a mined settlement counts as final. */
  readonly requiredConfirmations: number;
  /** Sends `matchOrders` for the batch; returns the transaction hash. */
  submitMatch(batch: SettlementBatch): Promise<string>;
  /** `submitMatch` for many batches at once (one step's takers): per batch, in order, its tx hash or the error. */
  submitMatches(batches: SettlementBatch[], options?: SubmitOptions): Promise<(string | SettlementChainError)[]>;
  getReceipt(chainId: number, txHash: string): Promise<ReceiptState>;
  /**
   * The mined `matchOrders` that took this order as taker, or null. An order is the taker of at
   * most one match, so after a send whose outcome is unknown this tells whether it went through.
   */
  findMatchOfTaker(chainId: number, exchange: string, takerOrderHash: string): Promise<string | null>;
  /** Whether the order was cancelled on chain, or its nonce is below the maker's current nonce. */
  checkOrder(chainId: number, exchange: string, order: OrderRecord): Promise<{ cancelled: boolean; nonceBumped: boolean }>;
  /**
   * After the batch's match was refused: which of its orders the chain refuses now, and why (views
   * at `blockNumber`, the block that refused it, else the latest; src/chain/blame-legs.ts). Empty
   * when no order can be blamed.
   */
  blameGroup(chainId: number, exchange: string, trades: SettlementTrade[], blockNumber?: string): Promise<LegBlame[]>;
  /** The chain's clock: the latest block's timestamp, unix seconds (what order expirations are compared with). */
  chainTime(chainId: number): Promise<number>;
}

/** An order the chain refuses now, and why (src/chain/blame-legs.ts `LegFailure`). */
export interface LegBlame {
  orderHash: string;
  reason: string;
}

export class SettlementChainError extends Error {
  readonly transient: boolean;
  /**
   * Whether the match may be on its way to the chain: a send whose answer was lost and which the
   * node could not be asked about. Transient, and not counted as a send (like a lookup that failed).
   */
  readonly unknown: boolean;

  constructor(message: string, transient: boolean, options?: { cause?: unknown; unknown?: boolean }) {
    super(message, options);
    this.name = 'SettlementChainError';
    this.transient = transient || options?.unknown === true;
    this.unknown = options?.unknown === true;
  }
}

/** Until the chain module is wired: every send fails transiently, so fills show RETRYING, then FAILED. */
export const UNCONFIGURED_CHAIN: SettlementChain = {
  requiredConfirmations: 1,
  submitMatch: () => Promise.reject(new SettlementChainError('settlement chain is not configured', true)),
  submitMatches: (batches) => Promise.resolve(batches.map(() => new SettlementChainError('settlement chain is not configured', true))),
  getReceipt: () => Promise.resolve({ status: 'pending' }),
  findMatchOfTaker: () => Promise.resolve(null),
  blameGroup: () => Promise.resolve([]),
  checkOrder: () => Promise.resolve({ cancelled: false, nonceBumped: false }),
  chainTime: () => Promise.resolve(Math.floor(Date.now() / 1000)),
};
