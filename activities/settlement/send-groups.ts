/**
 * Sending groups' matches: each group checked first (its trades complete, its match not on chain
 * already), then handed to the chain port. `sendOneGroup` (activity `sendSettlement`) serves
 * runs recorded before batched settlement; `sendStepGroups` (activity `sendSettlements`) sends a
 * step's groups together.
 */
import { Context } from '@temporalio/activity';
import { settlementRounds } from '../../src/metrics/metrics';
import type { MarketRef } from '../../src/matching/market-ids';
import type { SettlementGroup } from '../../src/matching/payloads';
import type { SettlementTrade, SubmitOptions } from '../../src/settlement/settlement-port';
import type { SettlementContext } from './context';
import type { GroupTrades } from './group-trades';
import type { RefusalChecks } from './refused-groups';
import type { SendFailures, SendOutcome, SendQuery } from './send-outcomes';

export function createGroupSends(
  { chain }: SettlementContext, { tradesOf, exchangeOf }: GroupTrades, { failure, unanswered, settledElsewhere }: SendFailures,
  { blameRefused, nameExpiredMakers }: RefusalChecks,
) {
  /**
   * After a send whose outcome was never learned (an earlier attempt, or this activity's earlier
   * try), the match may be on chain already: then it is the group's transaction.
   */
  async function alreadyMined(market: MarketRef, exchange: string, attempt: number, trades: SettlementTrade[], recheck: boolean): Promise<string | null> {
    if (!recheck && attempt === 1 && Context.current().info.attempt === 1) return null;
    return chain.findMatchOfTaker(market.chain_id, exchange, trades[0].taker.order.order_hash);
  }

  /**
   * A group before anything is sent: its outcome when its trades are incomplete, its match is
   * mined already or the chain could not be asked; else the trades to send.
   */
  async function beforeSend(
    batchId: string, market: MarketRef, exchange: string, attempt: number, trades: SettlementTrade[] | string, recheck = false,
  ): Promise<{ outcome: SendOutcome } | { send: SettlementTrade[] }> {
    if (typeof trades === 'string') return { outcome: { ok: false, transient: false, message: trades } };
    try {
      const mined = await alreadyMined(market, exchange, attempt, trades, recheck);
      return mined ? { outcome: { ok: true, txHash: mined } } : { send: trades };
    } catch (error) {
      return { outcome: unanswered(error, batchId, attempt) };
    }
  }

  async function submit(batchId: string, market: MarketRef, exchange: string, attempt: number, trades: SettlementTrade[] | string): Promise<SendOutcome> {
    const ready = await beforeSend(batchId, market, exchange, attempt, trades);
    if ('outcome' in ready) return ready.outcome;
    try {
      return { ok: true, txHash: await chain.submitMatch({ batchId, attempt, chain_id: market.chain_id, exchange, trades: ready.send }) };
    } catch (error) {
      return failure(error, batchId, attempt);
    }
  }

  async function sendOneGroup(q: { batchId: string; market: MarketRef; tradeIds: string[]; attempt: number }): Promise<SendOutcome> {
    const trades = await tradesOf([q]);
    return submit(q.batchId, q.market, await exchangeOf(q.market), q.attempt, trades.get(q.batchId)!);
  }

  /**
   * Sends the `matchOrders` of many groups (one step's takers): their data read at once, the
   * transactions handed to the chain port together (`submitMatches`: estimated side by side,
   * signed in one block of nonces, broadcast as one JSON-RPC batch). `recheck`: ask the chain
   * before the first send too (a batch found again: an earlier child may have sent it).
   */
  async function sendStepGroups(q: SendQuery): Promise<Record<string, SendOutcome>> {
    const { outcomes, trades, exchange } = await submitGroups(q);
    await nameExpiredMakers(q.market, outcomes, trades);
    await blameRefused(q.market, exchange, outcomes, trades);
    return outcomes;
  }

  /** `sendStepGroups`, also answering each group's taker order; `together`: many groups per transaction. */
  async function submitGroups(q: SendQuery, options: SubmitOptions = {}): Promise<{
    outcomes: Record<string, SendOutcome>; takerOf: Map<string, string>; exchange: string; trades: Map<string, SettlementTrade[] | string>;
  }> {
    settlementRounds.inc({ attempt: q.attempt > 1 ? 'retry' : 'first' });
    const [trades, exchange] = await Promise.all([tradesOf(q.groups), exchangeOf(q.market)]);
    const takerOf = new Map<string, string>();
    for (const [batchId, list] of trades) if (typeof list !== 'string') takerOf.set(batchId, list[0].taker.order.order_hash.toLowerCase());
    const outcomes: Record<string, SendOutcome> = {};
    const checked = await Promise.all(q.groups.map(async (group) => {
      const ready = await beforeSend(group.batchId, q.market, exchange, q.attempt, trades.get(group.batchId)!, q.recheck);
      if ('send' in ready) return { group, trades: ready.send };
      outcomes[group.batchId] = ready.outcome;
      return null;
    }));
    const toSend = checked.filter((c): c is { group: SettlementGroup; trades: SettlementTrade[] } => c !== null);
    if (toSend.length > 0) {
      const sent = await chain.submitMatches(toSend.map(({ group, trades: t }) => ({ batchId: group.batchId, attempt: q.attempt, chain_id: q.market.chain_id, exchange, trades: t })), options);
      await Promise.all(sent.map(async (result, k) => {
        const { batchId } = toSend[k].group;
        outcomes[batchId] = typeof result === 'string'
          ? { ok: true, txHash: result }
          : await settledElsewhere(q.market, exchange, takerOf.get(batchId), failure(result, batchId, q.attempt), batchId, q.attempt);
      }));
    }
    return { outcomes, takerOf, exchange, trades };
  }

  return { sendOneGroup, sendStepGroups, submitGroups };
}

export type GroupSends = ReturnType<typeof createGroupSends>;
