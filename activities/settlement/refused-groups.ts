/**
 * Groups the chain refused: which orders it refuses now (leg blame), which makers expired by the
 * chain's clock, and whether a mined batch transaction settled a given taker's match.
 */
import type { MarketRef } from '../../src/matching/market-ids';
import type { OrderRecord } from '../../src/ports/order-record';
import { SettlementChainError, type SettlementTrade } from '../../src/settlement/settlement-port';
import type { SettlementContext } from './context';
import type { MinedReceipt } from './receipts';
import type { SendOutcome } from './send-outcomes';

/** The exchange's reason for a match it did not run for want of the batch's gas (contracts/Exchange.sol). */
const BATCH_OUT_OF_GAS = 'Exchange: batch out of gas';
/** The exchange's reason for a match with an order past its expiration at the block's time. */
const EXPIRED_REASON = 'Exchange: order expired';

export function createRefusalChecks({ chain, logger }: SettlementContext) {
  /**
   * Groups refused (before or inside a transaction): which of their orders the chain refuses now,
   * checked leg by leg at the block that refused them (`refusedAt`, per group; else the latest).
   * A group with a blamed order is final: those orders fail, the others go back to the market. A
   * group nobody can be blamed for stays as it was. The checks are reads, made on failures only.
   */
  async function blameRefused(
    market: MarketRef, exchange: string, outcomes: Record<string, SendOutcome>, trades: Map<string, SettlementTrade[] | string>, refusedAt = new Map<string, string>(),
  ): Promise<void> {
    await Promise.all(Object.entries(outcomes).map(async ([batchId, outcome]) => {
      const list = trades.get(batchId);
      if (outcome.ok || outcome.unknown || !list || typeof list === 'string') return;
      try {
        const blamed = await chain.blameGroup(market.chain_id, exchange, list, refusedAt.get(batchId));
        if (blamed.length > 0) outcomes[batchId] = { ...outcome, transient: false, blamed };
      } catch (error) {
        logger.warn({ err: (error instanceof Error ? error.message : String(error)).split('\n')[0], batchId }, 'leg blame failed: the group is judged as a whole');
      }
    }));
  }

  /**
   * Groups refused because orders of theirs expired on chain since they matched (the engine
   * matches an order until its expiration second, the exchange refuses it from that second on, by
   * the block's clock): the trades of the makers that the chain's clock holds expired, so that the
   * workflow fails those alone and sends the rest again. A group whose taker expired, or all of
   * whose makers did, stays refused whole. When the chain cannot tell its time, the group goes
   * round again (a counted send) to be looked at then.
   */
  async function nameExpiredMakers(market: MarketRef, outcomes: Record<string, SendOutcome>, trades: Map<string, SettlementTrade[] | string>): Promise<void> {
    const refused = Object.entries(outcomes).filter((e): e is [string, Extract<SendOutcome, { ok: false }>] => {
      const o = e[1];
      return !o.ok && !o.transient && o.message.includes(EXPIRED_REASON);
    });
    if (refused.length === 0) return;
    let now: number;
    try {
      now = await chain.chainTime(market.chain_id);
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'chain time unknown: expired matches go round again');
      for (const [batchId, outcome] of refused) outcomes[batchId] = { ...outcome, transient: true };
      return;
    }
    const expired = (o: OrderRecord) => o.expiration !== '0' && Number(o.expiration) <= now;
    for (const [batchId, outcome] of refused) {
      const list = trades.get(batchId);
      if (!list || typeof list === 'string' || expired(list[0].taker.order)) continue;
      const ids = list.filter((t) => expired(t.maker.order)).map((t) => t.tradeId);
      if (ids.length > 0 && ids.length < list.length) outcomes[batchId] = { ...outcome, expiredTradeIds: ids };
    }
  }

  return { blameRefused, nameExpiredMakers };
}

export type RefusalChecks = ReturnType<typeof createRefusalChecks>;

/**
 * Why a mined transaction that carried the taker's match did not settle it (a batch transaction
 * settles or refuses each match alone), or null when it did. The contract's reason is final, as
 * a refusal before sending is; without one (out of gas) the group goes round again.
 */
export function refusedInside(receipt: MinedReceipt | undefined, taker: string, txHash: string): SettlementChainError | null {
  if (!receipt?.success || !receipt.matchedTakers || receipt.matchedTakers.includes(taker)) return null;
  const reason = receipt.refusedTakers?.find((r) => r.taker === taker)?.reason;
  // Refused unrun because its transaction ran short of gas: the operator's, not the match's; sent again.
  return reason && reason !== BATCH_OUT_OF_GAS
    ? new SettlementChainError(`matchOrders reverted: ${reason}`, false)
    : new SettlementChainError(`match not settled by its batch transaction ${txHash}`, true);
}
