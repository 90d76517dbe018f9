/**
 * The chain port: the only way the rest of the service talks to the chain. Each method is one
 * file in this folder; this binds them to one deployment's clients.
 * Errors: AppError SERVICE_DEGRADED when the node is unreachable, ChainRevertError when a
 * contract refuses (see chain-errors.ts).
 */
import type { Address, Hex } from 'viem';
import type { SignedOrder } from '../signing';
import type { ChainPortConfig } from './chain-config';
import { createChainContext, type ChainContext } from './chain-context';
import { getBlockNumber, getCancelAndNonceEvents, type CancelOrNonceEvent } from './cancel-and-nonce-events';
import { latestBlockTime } from './latest-block-time';
import { cancelOrderCalldata } from './cancel-order-calldata';
import { prepareCondition, reportPayouts, type PreparedCondition } from './conditions';
import { contractOrderHash, isValidContractSignature, makerNonce, orderStatus, type OnChainOrderStatus } from './exchange-reads';
import { fundWallet, type FundWalletOptions } from './fund-wallet';
import { readWalletBalances, type WalletBalances } from './read-wallet-balances';
import { findMatchOfTaker } from './find-match-of-taker';
import { submitMatch, type MatchSubmission } from './submit-match';
import { submitMatches } from './submit-matches';
import { submitMatchBatches } from './submit-match-batches';
import { waitForReceipt, type SettlementReceipt } from './wait-for-receipt';
import { getReceiptState, type ReceiptState } from './get-receipt-state';
import { blameLegs, type LegBlame, type MatchLeg } from './blame-legs';

export interface ChainPort {
  readonly context: ChainContext;
  readonly chainId: number;
  readonly operatorAddress: Address;
  readonly addresses: ChainPortConfig['addresses'];
  readWalletBalances(wallet: Address, tokenIds?: readonly bigint[]): Promise<WalletBalances>;
  makerNonce(maker: Address): Promise<bigint>;
  orderStatus(orderHash: Hex): Promise<OnChainOrderStatus>;
  contractOrderHash(order: SignedOrder): Promise<Hex>;
  isValidContractSignature(wallet: Address, digest: Hex, signature: Hex): Promise<boolean>;
  submitMatch(match: MatchSubmission): Promise<Hex>;
  /** Many matches at once (submit-matches.ts): per match its tx hash or why it was not sent. */
  submitMatches(matches: MatchSubmission[]): Promise<(Hex | Error)[]>;
  /**
   * Many matches in few `matchOrdersBatch` transactions (submit-match-batches.ts): per match the
   * hash of the transaction carrying it, or why it was not sent. The receipt's `matchedTakers` says
   * which matches of a transaction settled.
   */
  submitMatchBatches(matches: MatchSubmission[]): Promise<(Hex | Error)[]>;
  /** After a refused match: which of its orders the chain refuses now, and why (blame-legs.ts). */
  blameLegs(legs: MatchLeg[], blockNumber?: bigint): Promise<LegBlame[]>;
  /** The mined `matchOrders` that took this order as taker, if any (find-match-of-taker.ts). */
  findMatchOfTaker(takerOrderHash: Hex): Promise<Hex | null>;
  waitForReceipt(hash: Hex, confirmations?: number, timeoutMs?: number): Promise<SettlementReceipt>;
  getReceiptState(hash: Hex): Promise<ReceiptState>;
  cancelOrderCalldata(order: SignedOrder): { to: Address; data: Hex; chain_id: number };
  getBlockNumber(): Promise<bigint>;
  /** The latest block's timestamp, unix seconds (latest-block-time.ts). */
  latestBlockTime(): Promise<number>;
  getCancelAndNonceEvents(fromBlock: bigint, toBlock: bigint): Promise<CancelOrNonceEvent[]>;
  prepareCondition(questionId: Hex): Promise<PreparedCondition>;
  reportPayouts(questionId: Hex, winningOutcome: 0 | 1): Promise<void>;
  /** Local chains only (needs the collateral's open mint). */
  fundWallet(address: Address, amount: bigint, options?: FundWalletOptions): Promise<void>;
}

export function createChainPort(config: ChainPortConfig): ChainPort {
  const ctx = createChainContext(config);
  return {
    context: ctx,
    chainId: config.chainId,
    operatorAddress: ctx.operator.address,
    addresses: config.addresses,
    readWalletBalances: (wallet, tokenIds) => readWalletBalances(ctx, wallet, tokenIds),
    makerNonce: (maker) => makerNonce(ctx, maker),
    orderStatus: (orderHash) => orderStatus(ctx, orderHash),
    contractOrderHash: (order) => contractOrderHash(ctx, order),
    isValidContractSignature: (wallet, digest, signature) => isValidContractSignature(ctx, wallet, digest, signature),
    submitMatch: (match) => submitMatch(ctx, match),
    submitMatches: (matches) => submitMatches(ctx, matches),
    submitMatchBatches: (matches) => submitMatchBatches(ctx, matches),
    findMatchOfTaker: (takerOrderHash) => findMatchOfTaker(ctx, takerOrderHash),
    blameLegs: (legs, blockNumber) => blameLegs(ctx, legs, blockNumber),
    waitForReceipt: (hash, confirmations, timeoutMs) => waitForReceipt(ctx, hash, confirmations, timeoutMs),
    getReceiptState: (hash) => getReceiptState(ctx, hash),
    cancelOrderCalldata: (order) => cancelOrderCalldata(config.addresses.exchange, config.chainId, order),
    getBlockNumber: () => getBlockNumber(ctx),
    latestBlockTime: () => latestBlockTime(ctx),
    getCancelAndNonceEvents: (fromBlock, toBlock) => getCancelAndNonceEvents(ctx, fromBlock, toBlock),
    prepareCondition: (questionId) => prepareCondition(ctx, questionId),
    reportPayouts: (questionId, winningOutcome) => reportPayouts(ctx, questionId, winningOutcome),
    fundWallet: (address, amount, options) => fundWallet({ context: ctx }, address, amount, options),
  };
}
