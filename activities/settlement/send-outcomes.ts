/**
 * What a send answers per group, and the failures that are not final yet: a send whose outcome
 * could not be learned, or a refusal that may be a copy of a match already on chain.
 */
import type { MarketRef } from '../../src/matching/market-ids';
import type { SettlementGroup } from '../../src/matching/payloads';
import { SettlementChainError, type LegBlame } from '../../src/settlement/settlement-port';
import type { SettlementContext } from './context';

/** What settlement sends: a market's groups, the send's attempt; `recheck`: ask the chain before the first send too. */
export interface SendQuery {
  market: MarketRef;
  groups: SettlementGroup[];
  attempt: number;
  recheck?: boolean;
}

/**
 * `unknown`: the chain could not say whether the group's match is on its way: nothing was sent
 * because an earlier send's outcome could not be learned, or this send lost its answer and the
 * node could not be asked for its transaction. The workflow does not count such a round as a
 * send (a group must not end FAILED while its match may be on chain).
 */
export type SendOutcome = { ok: true; txHash: string } | {
  ok: false; transient: boolean; message: string; unknown?: true; expiredTradeIds?: string[];
  /** The orders the chain refuses now (leg blame): they fail alone, the others of the match go back. */
  blamed?: LegBlame[];
};

export function createSendFailures({ chain, logger }: SettlementContext) {
  /** A send that failed, as the workflow sees it (logged with the first line of the error only). */
  function failure(error: unknown, batchId: string, attempt: number): Extract<SendOutcome, { ok: false }> {
    const transient = error instanceof SettlementChainError ? error.transient : true;
    // The first line: a node's full error repeats the calldata (kilobytes per group in a batch's result).
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 500);
    logger.warn({ err: message, batchId, attempt }, 'settlement send failed');
    // A send that lost its answer and could not be looked up may be on its way: not a counted send.
    return error instanceof SettlementChainError && error.unknown ? { ok: false, transient: true, message, unknown: true } : { ok: false, transient, message };
  }

  /**
   * A send refused for good (the exchange gave its reason) may be a copy of a match an earlier
   * transaction settled: a retry that sent again while the first was still pending (a crash, or
   * the first send's answer lost), refused as "filled". Before it is final, the chain says whether
   * the taker's match is on chain; if so, that transaction is the group's. When the chain cannot
   * be asked, the group goes round again rather than ending FAILED for a match it may have settled.
   */
  async function settledElsewhere(market: MarketRef, exchange: string, taker: string | undefined, outcome: SendOutcome, batchId: string, attempt: number): Promise<SendOutcome> {
    if (outcome.ok || outcome.transient || !taker) return outcome;
    try {
      const mined = await chain.findMatchOfTaker(market.chain_id, exchange, taker);
      return mined ? { ok: true, txHash: mined } : outcome;
    } catch (error) {
      return unanswered(error, batchId, attempt);
    }
  }

  /** The chain could not say whether the group's match is on chain: go round again, uncounted. */
  function unanswered(error: unknown, batchId: string, attempt: number): Extract<SendOutcome, { ok: false }> {
    return { ...failure(error, batchId, attempt), transient: true, unknown: true };
  }

  return { failure, unanswered, settledElsewhere };
}

export type SendFailures = ReturnType<typeof createSendFailures>;
