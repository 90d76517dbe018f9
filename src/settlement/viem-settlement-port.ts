import type { Hex } from 'viem';
import { ChainRevertError, matchLegsOf, matchSubmissionFromTrades, type ChainPort, type MatchSubmission } from '../chain';
import { SendOutcomeUnknownError } from '../chain/lost-send-answer';
import { signedOrderOfRecord } from '../ports/signed-order-of-record';
import { isAppError } from '../errors';
import { SettlementChainError, type SettlementBatch, type SettlementChain, type ReceiptState } from './settlement-port';

/**
 * The real settlement port: one `matchOrders` per batch through the chain module. A batch holds
 * the trades of one incoming (taker) order against the resting orders it met, which is exactly
 * what one `matchOrders(taker, makers, ...)` call settles; `together`, many such calls go out in
 * each `matchOrdersBatch` transaction.
 */
export function createChainSettlement(portFor: (chainId: number) => ChainPort, requiredConfirmations: number): SettlementChain {
  return {
    requiredConfirmations,
    async submitMatch(batch) {
      const submission = matchSubmissionOf(batch);
      try {
        return await portFor(batch.chain_id).submitMatch(submission);
      } catch (error) {
        throw asSettlementError(error);
      }
    },
    async submitMatches(batches, options = {}) {
      const outcomes: (string | SettlementChainError)[] = new Array(batches.length);
      const byChain = new Map<number, { index: number; submission: MatchSubmission }[]>();
      batches.forEach((batch, index) => {
        try {
          const list = byChain.get(batch.chain_id) ?? [];
          list.push({ index, submission: matchSubmissionOf(batch) });
          byChain.set(batch.chain_id, list);
        } catch (error) {
          outcomes[index] = asSettlementError(error);
        }
      });
      for (const [chainId, list] of byChain) {
        try {
          const port = portFor(chainId);
          const submissions = list.map((l) => l.submission);
          const sent = await (options.together ? port.submitMatchBatches(submissions) : port.submitMatches(submissions));
          sent.forEach((result, k) => {
            outcomes[list[k].index] = result instanceof Error ? asSettlementError(result) : result;
          });
        } catch (error) {
          for (const l of list) outcomes[l.index] = asSettlementError(error);
        }
      }
      return outcomes;
    },
    async getReceipt(chainId, txHash): Promise<ReceiptState> {
      try {
        const state = await portFor(chainId).getReceiptState(txHash as Hex);
        if (state.status === 'pending') return state;
        return {
          status: state.status, blockNumber: state.blockNumber.toString(), confirmations: state.confirmations,
          matchedTakers: state.matchedTakers, refusedTakers: state.refusedTakers,
        };
      } catch (error) {
        throw asSettlementError(error);
      }
    },
    async findMatchOfTaker(chainId, _exchange, takerOrderHash) {
      try {
        return await portFor(chainId).findMatchOfTaker(takerOrderHash as Hex);
      } catch (error) {
        throw asSettlementError(error);
      }
    },
    async blameGroup(chainId, exchange, trades, blockNumber) {
      try {
        const submission = matchSubmissionOf({ batchId: 'blame', attempt: 0, chain_id: chainId, exchange, trades });
        const legs = matchLegsOf(submission, trades[0].taker.order.order_hash as Hex, trades.map((t) => t.maker.order.order_hash as Hex));
        const blamed = await portFor(chainId).blameLegs(legs, blockNumber === undefined ? undefined : BigInt(blockNumber));
        return blamed.map((b) => ({ orderHash: b.hash.toLowerCase(), reason: b.reason }));
      } catch (error) {
        throw asSettlementError(error);
      }
    },
    async chainTime(chainId) {
      try {
        return await portFor(chainId).latestBlockTime();
      } catch (error) {
        throw asSettlementError(error);
      }
    },
    async checkOrder(chainId, _exchange, order) {
      try {
        const port = portFor(chainId);
        const [status, nonce] = await Promise.all([port.orderStatus(order.order_hash as Hex), port.makerNonce(order.maker as Hex)]);
        return { cancelled: status.cancelled, nonceBumped: BigInt(order.nonce) < nonce };
      } catch (error) {
        throw asSettlementError(error);
      }
    },
  };
}

/**
 * The `matchOrders` arguments of a batch: the chain module's `matchSubmissionFromTrades` derives
 * both amounts of every leg from the engine's exact sizes and collateral, and checks that every
 * trade shares the batch's one taker and conserves assets. A batch that breaks that is final.
 */
export function matchSubmissionOf(batch: SettlementBatch): MatchSubmission {
  const records = new Map<string, SettlementBatch['trades'][number]['taker']['order']>();
  const legOf = (leg: SettlementBatch['trades'][number]['taker']) => {
    records.set(leg.order.order_hash, leg.order);
    return { orderHash: leg.order.order_hash, side: leg.order.side, size: BigInt(leg.size), collateral: BigInt(leg.collateral) };
  };
  const trades = batch.trades.map((t) => ({ kind: t.kind, size: BigInt(t.size), maker: legOf(t.maker), taker: legOf(t.taker) }));
  try {
    return matchSubmissionFromTrades(trades, (hash) => signedOrderOfRecord(records.get(hash)!));
  } catch (error) {
    throw new SettlementChainError(`settlement batch ${batch.batchId}: ${(error as Error).message}`, false, { cause: error });
  }
}

/** A revert is final (the contract refuses this match); anything else (node down, timeout) may pass on retry. */
function asSettlementError(error: unknown): SettlementChainError {
  if (error instanceof SettlementChainError) return error;
  if (error instanceof ChainRevertError) return new SettlementChainError(error.message, false, { cause: error });
  if (error instanceof SendOutcomeUnknownError) return new SettlementChainError(error.message, true, { cause: error, unknown: true });
  const message = error instanceof Error ? error.message : String(error);
  const transient = !isAppError(error) || error.retryable;
  return new SettlementChainError(message, transient, { cause: error });
}
