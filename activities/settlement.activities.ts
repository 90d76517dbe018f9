/**
 * Activities of settlement and of the on-chain cancel watch. Chain calls go through the
 * `SettlementChain` port; the fills' and orders' status moves are idempotent (monotonic guards,
 * recomputed sums) so retries never double-apply.
 */
import { Context } from '@temporalio/activity';
import { observeFillStatus } from '../src/metrics/settlement-metrics';
import { settlementRounds } from '../src/metrics/metrics';
import { holdLevelOf, type HoldLevel, type RealtimeEvent, type RealtimePublisher, type SpendLevel } from '../src/ports/realtime-publisher';
import type { Logger } from '../src/logging/logger';
import type { mongo } from 'mongoose';
import { insertNew } from '../src/db/bulk-writes';
import { applyTrades } from '../src/candles/candle-store';
import { confirmedTradesOf } from '../src/candles/confirmed-trades';
import { timed } from '../src/logging/stage-timings';
import { NO_STEP_PRIORITY, type StepPriority } from '../src/matching/step-priority';
import { findByIds, type FillRecord, type MatchingCollections, type StoredOrder } from '../src/matching/collections';
import { fillIdOf, fillIdsOf, type MarketRef } from '../src/matching/market-ids';
import type { SettlementGroup } from '../src/matching/payloads';
import type { OrderRecord } from '../src/ports/order-record';
import { presentFill, presentOrder, presentSettledTrade } from '../src/matching/present';
import {
  SettlementChainError, type LegBlame, type ReceiptState, type SettlementChain, type SettlementLeg, type SettlementTrade, type SubmitOptions,
} from '../src/settlement/settlement-port';
import { reservedUnitsOf, toPlaceable } from './market.activities';
import { statusReasonFor } from '../src/orders/status-reasons';
import { positionRowIdOf, refoldPositions } from '../src/positions/position-rows';
import { returnsOf, type BlamedGroup, type BlamedOrder, type ReturnedOrder } from './settlement-unwind';
import type { PlaceableOrder } from '../src/matching/payloads';

export interface SettlementActivityDeps {
  collections: MatchingCollections;
  publisher: RealtimePublisher;
  logger: Logger;
  chain: SettlementChain;
  /** Receipt polling interval (ms); default 1000. */
  pollMs?: number;
  /** How long `sendAndAwaitReceipts` waits on for the confirmations of mined receipts (ms); default 3000. */
  confirmWaitMs?: number;
  /** The market steps of this process, which the finish's database commands wait for (default: none). */
  priority?: StepPriority;
}

type FillStatus = FillRecord['settlement_status'];

/** What settlement sends: a market's groups, the send's attempt; `recheck`: ask the chain before the first send too. */
interface SendQuery {
  market: MarketRef;
  groups: SettlementGroup[];
  attempt: number;
  recheck?: boolean;
}

/** A mined receipt as settlement decides on it (`matchedTakers`, `refusedTakers`: when the chain tells). */
interface MinedReceipt {
  success: boolean;
  confirmed: boolean;
  blockNumber?: string;
  matchedTakers?: string[];
  refusedTakers?: { taker: string; reason: string }[];
}

/** Per transaction, what the workflow decides on (recorded in its history): the takers stay in the activity. */
function verdictsOf(receipts: Record<string, MinedReceipt>): Record<string, { success: boolean; confirmed: boolean }> {
  return Object.fromEntries(Object.entries(receipts).map(([hash, { success, confirmed }]) => [hash, { success, confirmed }]));
}

/** A status for the fills of each group (each group with its own transaction). */
interface FillStatusWrite {
  groups: { tradeIds: string[]; txHash: string }[];
  status: FillStatus;
  /** Statuses the fills went through on the way, announced before `status` (not written). */
  passedThrough?: FillStatus[];
  /** Orders whose fills are marked `returned` (their match failed for another order; they go back). */
  returnedOrders?: string[];
}
const FINAL: FillStatus[] = ['CONFIRMED', 'FAILED'];
/** The exchange's reason for a match it did not run for want of the batch's gas (contracts/Exchange.sol). */
const BATCH_OUT_OF_GAS = 'Exchange: batch out of gas';
/** The exchange's reason for a match with an order past its expiration at the block's time. */
const EXPIRED_REASON = 'Exchange: order expired';
/** Filter of fills and trade rows not final yet: a final status is never written over. */
const NOT_FINAL = { settlement_status: { $nin: FINAL } };
/** Statuses of a fill whose transfers are on chain. */
const MOVED: FillStatus[] = ['MINED', 'CONFIRMED'];

/** What a mined fill took out of its wallet: a buyer's collateral and fee, a seller's tokens (contracts/Exchange.sol `_payOrder`). */
function spendOf(f: FillRecord): SpendLevel {
  const units = f.side === 'BUY' ? BigInt(f.collateral_units) + BigInt(f.fee_units) : BigInt(f.size_units);
  return {
    fill_id: fillIdOf(f.trade_id, f.role), wallet: f.wallet, chain_id: f.chain_id, condition_id: f.condition_id, side: f.side,
    outcome: f.outcome, units: units.toString(),
  };
}

/** A public trade row (collection `trades`, `_id` = trade id; sizes in base units). */
interface TradeRow {
  _id: string;
  trade_id: string;
  chain_id: number;
  condition_id: string;
  price: string;
  size: string;
  settlement_status: FillStatus;
  created_at: Date;
}

export function createSettlementActivities({
  collections: c, publisher, logger, chain, pollMs = 1_000, confirmWaitMs = 3_000, priority = NO_STEP_PRIORITY,
}: SettlementActivityDeps) {
  /** One of settlement's database commands (or a few), once no market step of this process is under way. */
  async function afterSteps<T>(stage: string, run: () => Promise<T>): Promise<T> {
    await timed('settle.yield', () => priority.quiet());
    return timed(stage, run);
  }
  const publish = async (events: RealtimeEvent[]) => {
    try {
      if (events.length > 0) await publisher.publish(events);
    } catch (error) {
      logger.error({ err: error }, 'publishing a settlement step failed');
    }
  };

  /**
   * `unknown`: the chain could not say whether the group's match is on its way: nothing was sent
   * because an earlier send's outcome could not be learned, or this send lost its answer and the
   * node could not be asked for its transaction. The workflow does not count such a round as a
   * send (a group must not end FAILED while its match may be on chain).
   */
  type SendOutcome = { ok: true; txHash: string } | {
    ok: false; transient: boolean; message: string; unknown?: true; expiredTradeIds?: string[];
    /** The orders the chain refuses now (leg blame): they fail alone, the others of the match go back. */
    blamed?: LegBlame[];
  };

  /** The settlement trades of the given groups, read with one query per collection. */
  async function tradesOf(groups: SettlementGroup[]): Promise<Map<string, SettlementTrade[] | string>> {
    const fills = await afterSteps('settle.sendFills', () => findByIds(c.fills, fillIdsOf(groups.flatMap((g) => g.tradeIds))));
    const orders = await afterSteps('settle.sendOrders', () => findByIds(c.orders, [...new Set(fills.map((f) => f.order_hash))]));
    const orderOf = new Map(orders.map((o) => [o.order_hash, o]));
    const fillOf = new Map(fills.map((f) => [fillIdOf(f.trade_id, f.role), f]));
    const out = new Map<string, SettlementTrade[] | string>();
    for (const group of groups) {
      const trades: SettlementTrade[] = [];
      for (const tradeId of group.tradeIds) {
        const maker = fillOf.get(fillIdOf(tradeId, 'maker'));
        const taker = fillOf.get(fillIdOf(tradeId, 'taker'));
        if (!maker || !taker || !orderOf.get(maker.order_hash) || !orderOf.get(taker.order_hash)) {
          out.set(group.batchId, `trade ${tradeId} has no complete fills`);
          break;
        }
        const leg = (f: FillRecord): SettlementLeg => ({ order: orderOf.get(f.order_hash)!, size: f.size_units, collateral: f.collateral_units, fee: f.fee_units });
        trades.push({ tradeId, kind: maker.kind, yesPrice: yesTicks(maker), size: maker.size_units, maker: leg(maker), taker: leg(taker) });
      }
      if (!out.has(group.batchId)) out.set(group.batchId, trades);
    }
    return out;
  }

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

  async function exchangeOf(market: MarketRef): Promise<string> {
    const doc = await c.markets.findOne({ chain_id: market.chain_id, condition_id: market.condition_id });
    return String(doc?.ctf_exchange_address ?? '');
  }

  async function sendSettlement(q: { batchId: string; market: MarketRef; tradeIds: string[]; attempt: number }): Promise<SendOutcome> {
    const trades = await tradesOf([q]);
    return submit(q.batchId, q.market, await exchangeOf(q.market), q.attempt, trades.get(q.batchId)!);
  }

  /**
   * Sends the `matchOrders` of many groups (one step's takers): their data read at once, the
   * transactions handed to the chain port together (`submitMatches`: estimated side by side,
   * signed in one block of nonces, broadcast as one JSON-RPC batch). `recheck`: ask the chain
   * before the first send too (a batch found again: an earlier child may have sent it).
   */
  async function sendSettlements(q: SendQuery): Promise<Record<string, SendOutcome>> {
    const { outcomes, trades, exchange } = await sendGroups(q);
    await nameExpiredMakers(q.market, outcomes, trades);
    await blameRefused(q.market, exchange, outcomes, trades);
    return outcomes;
  }

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

  /** `sendSettlements`, also answering each group's taker order; `together`: many groups per transaction. */
  async function sendGroups(q: SendQuery, options: SubmitOptions = {}): Promise<{
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

  /**
   * Polls the receipts of `txHashes` (heartbeating between polls) until `decide` gives each one a
   * verdict (undefined: keep waiting); per hash, its verdict. A receipt read that fails (the node
   * does not answer) is a poll without news: the wait goes on, bounded by the activity's timeout,
   * instead of failing the activity, whose few retries a node restart outlasts (the settlement
   * would fail with its fills still PENDING or MINED) and whose retry would send again.
   */
  async function pollReceipts<T>(chainId: number, txHashes: string[], decide: (r: ReceiptState) => T | undefined): Promise<Record<string, T>> {
    const done: Record<string, T> = {};
    let waiting = [...new Set(txHashes)];
    let failedReads = 0;
    for (;;) {
      const states = await Promise.all(waiting.map((h) => chain.getReceipt(chainId, h).catch((error: unknown) => {
        // The first failure of a run of them, then one in RECEIPT_FAILURES_PER_LOG: an outage is seen, not a flood.
        if (failedReads++ % RECEIPT_FAILURES_PER_LOG === 0) {
          logger.warn({ err: (error instanceof Error ? error.message : String(error)).split('\n')[0], txHash: h, failedReads }, 'receipt read failed; polling on');
        }
        return undefined;
      })));
      waiting = waiting.filter((h, i) => {
        const state = states[i];
        const verdict = state === undefined ? undefined : decide(state);
        if (verdict === undefined) return true;
        done[h] = verdict;
        return false;
      });
      if (waiting.length === 0) return done;
      Context.current().heartbeat();
      await Context.current().sleep(pollMs);
    }
  }

  /** Polls until the transaction is mined; success false when it reverted. */
  async function awaitReceipt(q: { chainId: number; txHash: string }): Promise<{ success: boolean; blockNumber: string }> {
    const done = await pollReceipts(q.chainId, [q.txHash], (r) => (r.status === 'pending' ? undefined : { success: r.status === 'success', blockNumber: r.blockNumber }));
    return done[q.txHash];
  }

  /** Polls until the receipt has enough confirmations; confirmed false when it left the chain (reorg) or reverted. */
  async function awaitConfirmations(q: { chainId: number; txHash: string }): Promise<{ confirmed: boolean }> {
    return { confirmed: (await awaitConfirmationsOf({ chainId: q.chainId, txHashes: [q.txHash] }))[q.txHash] };
  }

  /**
   * `awaitReceipt` for many transactions at once: per hash, whether it succeeded and whether it
   * already has the required confirmations (then the workflow moves its fills to CONFIRMED at once).
   */
  async function awaitReceipts(q: { chainId: number; txHashes: string[] }): Promise<Record<string, { success: boolean; confirmed: boolean }>> {
    return verdictsOf(await awaitMinedReceipts(q));
  }

  /** `awaitReceipts`, with the takers each receipt says were matched (when it says). */
  function awaitMinedReceipts(q: { chainId: number; txHashes: string[] }, waitForConfirmationsMs = 0): Promise<Record<string, MinedReceipt>> {
    const started = Date.now();
    return pollReceipts(q.chainId, q.txHashes, (r) => {
      if (r.status === 'pending') return undefined;
      const confirmed = r.status === 'success' && r.confirmations >= chain.requiredConfirmations;
      if (r.status === 'success' && !confirmed && Date.now() - started < waitForConfirmationsMs) return undefined;
      return { success: r.status === 'success', confirmed, blockNumber: r.blockNumber, matchedTakers: r.matchedTakers, refusedTakers: r.refusedTakers };
    });
  }

  /** `awaitConfirmations` for many transactions at once: per hash, whether it reached the confirmations. */
  function awaitConfirmationsOf(q: { chainId: number; txHashes: string[] }): Promise<Record<string, boolean>> {
    return pollReceipts(q.chainId, q.txHashes, (r) => (r.status === 'success' && r.confirmations < chain.requiredConfirmations ? undefined : r.status === 'success'));
  }

  /**
   * `sendSettlements` and `awaitReceipts` as one activity (one task through the server instead of
   * two). A retry sends nothing twice: every send after the first asks the chain for the match first.
   */
  async function sendAndAwaitReceipts(q: SendQuery): Promise<{
    sent: Record<string, SendOutcome>; receipts: Record<string, { success: boolean; confirmed: boolean }>;
  }> {
    // A first send goes out many groups per transaction (a chunk of matches costs one signature,
    // one block and one receipt), unchecked; a retry goes one transaction per group, each match run
    // first, so that a match that failed without a reason (out of gas) gets the node's estimate.
    const { outcomes: sent, takerOf, exchange, trades } = await sendGroups(q, { together: q.attempt === 1 });
    const txHashes = [...new Set(Object.values(sent).flatMap((o) => (o.ok ? [o.txHash] : [])))];
    // Waiting on a little for the confirmations (one block on the embedded chain, which mines an
    // empty one every second) takes the common path: no separate MINED write, no confirmation
    // activity, and fewer workflow tasks. Past `confirmWaitMs` the workflow takes the MINED path.
    const mined = txHashes.length > 0 ? await awaitMinedReceipts({ chainId: q.market.chain_id, txHashes }, confirmWaitMs) : {};
    const refusedAt = new Map<string, string>();
    await Promise.all(Object.entries(sent).map(async ([batchId, outcome]) => {
      if (!outcome.ok) return;
      const refused = refusedInside(mined[outcome.txHash], takerOf.get(batchId) ?? '', outcome.txHash);
      if (!refused) return;
      const block = mined[outcome.txHash]?.blockNumber;
      if (block !== undefined) refusedAt.set(batchId, block);
      sent[batchId] = await settledElsewhere(q.market, exchange, takerOf.get(batchId), failure(refused, batchId, q.attempt), batchId, q.attempt);
    }));
    // A refused copy whose match an earlier transaction had settled: that transaction's receipt.
    const found = [...new Set(Object.values(sent).flatMap((o) => (o.ok && !(o.txHash in mined) ? [o.txHash] : [])))];
    if (found.length > 0) Object.assign(mined, await awaitMinedReceipts({ chainId: q.market.chain_id, txHashes: found }, confirmWaitMs));
    await nameExpiredMakers(q.market, sent, trades);
    await blameRefused(q.market, exchange, sent, trades, refusedAt);
    return { sent, receipts: verdictsOf(mined) };
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

  /**
   * Why a mined transaction that carried the taker's match did not settle it (a batch transaction
   * settles or refuses each match alone), or null when it did. The contract's reason is final, as
   * a refusal before sending is; without one (out of gas) the group goes round again.
   */
  function refusedInside(receipt: MinedReceipt | undefined, taker: string, txHash: string): SettlementChainError | null {
    if (!receipt?.success || !receipt.matchedTakers || receipt.matchedTakers.includes(taker)) return null;
    const reason = receipt.refusedTakers?.find((r) => r.taker === taker)?.reason;
    // Refused unrun because its transaction ran short of gas: the operator's, not the match's; sent again.
    return reason && reason !== BATCH_OUT_OF_GAS
      ? new SettlementChainError(`matchOrders reverted: ${reason}`, false)
      : new SettlementChainError(`match not settled by its batch transaction ${txHash}`, true);
  }

  /** CONFIRMED (`markFillsOf`, MINED announced first for `atOnce`) and the orders' finish, as one activity. */
  async function confirmFills(q: { atOnce: { tradeIds: string[]; txHash: string }[]; later: { tradeIds: string[]; txHash: string }[] }): Promise<void> {
    const fills = [
      ...(await writeFillStatus({ groups: q.atOnce, status: 'CONFIRMED', passedThrough: ['MINED'] })),
      ...(await writeFillStatus({ groups: q.later, status: 'CONFIRMED' })),
    ];
    // The fills as just written and read back: the finish reads only the orders' other fills.
    await finishWith(fills, false);
  }

  /** Moves the batch's fills (and public trades) to `status`, never out of CONFIRMED or FAILED. */
  async function markFills(q: { tradeIds: string[]; status: FillStatus; txHash: string }): Promise<void> {
    await markFillsOf({ groups: [{ tradeIds: q.tradeIds, txHash: q.txHash }], status: q.status });
  }

  /**
   * `markFills` for many groups at once (each with its own transaction): one bulk write. Public
   * trades take only final statuses (REST lists settled prints). `passedThrough`: statuses the
   * fills went through on the way (MINED, when a receipt already had its confirmations), announced
   * before the one written, so a client still sees every step.
   */
  async function markFillsOf(q: FillStatusWrite): Promise<void> {
    await writeFillStatus(q);
  }

  /** `markFillsOf`, resolving the groups' fills as written. */
  async function writeFillStatus(q: FillStatusWrite): Promise<FillRecord[]> {
    const now = new Date();
    const groups = q.groups.filter((g) => g.tradeIds.length > 0);
    if (groups.length === 0) return [];
    const tradeIds = groups.flatMap((g) => g.tradeIds);
    const returned = q.returnedOrders ?? [];
    await afterSteps('settle.fillsWrite', () => c.fills.bulkWrite(groups.flatMap((g) => {
      const set = { settlement_status: q.status, updated_at: now, ...(g.txHash ? { tx_hash: g.txHash } : {}) };
      const ids = { _id: { $in: fillIdsOf(g.tradeIds) }, ...NOT_FINAL };
      if (returned.length === 0) return [{ updateMany: { filter: ids, update: { $set: set } } }];
      return [
        { updateMany: { filter: { ...ids, order_hash: { $nin: returned } }, update: { $set: set } } },
        { updateMany: { filter: { ...ids, order_hash: { $in: returned } }, update: { $set: { ...set, returned: true } } } },
      ];
    }), { ordered: false }));
    const fills = await afterSteps('settle.fillsRead', () => findByIds(c.fills, fillIdsOf(tradeIds)));
    observeFillStatus(q.status, fills, now);
    // A failed fill counts in no position: its rows are folded again without it (a retry too: idempotent).
    if (q.status === 'FAILED') await afterSteps('settle.positions', () => refoldPositions(c.positions, c.fills, fills.map(positionRowIdOf), now));
    const printing = FINAL.includes(q.status) ? await afterSteps('settle.trades', () => writeTrades(fills)) : [];
    // Every confirmed fill, not only the prints of this write: a retry still folds what a lost attempt did not.
    if (q.status === 'CONFIRMED') await afterSteps('settle.candles', () => applyTrades(c.candles, confirmedTradesOf(fills)));
    const events: RealtimeEvent[] = [];
    const spends: SpendLevel[] = [];
    for (const status of [...(q.passedThrough ?? []), q.status]) {
      for (const f of fills) {
        // A fill that was already final (a retry, or another writer) is announced as it is, once.
        if (status !== q.status && f.settlement_status !== q.status) continue;
        events.push({ channel: 'user', wallet: f.wallet, payload: { type: 'fill', fill: presentFill(status === q.status ? f : { ...f, settlement_status: status }) } });
        if (status === 'MINED' && MOVED.includes(f.settlement_status)) spends.push(spendOf(f));
      }
    }
    // First: order entry takes the spends off its cached balances before anything else of the step.
    if (spends.length > 0) events.unshift({ channel: 'spends', spends });
    const takerFillOf = new Map(fills.filter((f) => f.role === 'taker').map((f) => [f.trade_id, f]));
    for (const t of printing) {
      const fill = takerFillOf.get(String(t._id));
      if (!fill) continue;
      events.push({ channel: 'trades', chain_id: fill.chain_id, condition_id: fill.condition_id, payload: presentSettledTrade(t, fill) });
    }
    await timed('settle.fillsPublish', () => publish(events));
    return fills;
  }

  /**
   * Writes the public trade of each final taker fill, with the fill's status, and returns the ones
   * this write confirmed, to print: a trade already written (a retried write) prints nothing twice.
   * Trades of fills written before prints waited for settlement already have their row (PENDING,
   * from their step): it takes the fill's status.
   */
  async function writeTrades(fills: FillRecord[]): Promise<TradeRow[]> {
    const takers = fills.filter((f) => f.role === 'taker' && FINAL.includes(f.settlement_status));
    const statusOf = new Map(takers.map((f) => [f.trade_id, f.settlement_status]));
    const rows: TradeRow[] = takers.filter((f) => f.trade_price !== undefined).map((f) => ({
      _id: f.trade_id, trade_id: f.trade_id, chain_id: f.chain_id, condition_id: f.condition_id, price: f.trade_price!,
      size: f.size_units, settlement_status: f.settlement_status, created_at: f.created_at,
    }));
    const there = new Set(await insertNew(c.trades, rows));
    for (const f of takers) if (f.trade_price === undefined) there.add(f.trade_id);
    const earlier = there.size > 0 ? (await findByIds(c.trades, [...there])).filter((t) => !FINAL.includes(t.settlement_status as FillStatus)) : [];
    for (const status of FINAL) {
      const ids = earlier.map((t) => String(t._id)).filter((id) => statusOf.get(id) === status);
      if (ids.length > 0) await c.trades.updateMany({ _id: { $in: ids }, ...NOT_FINAL }, { $set: { settlement_status: status } });
    }
    const confirmed = (id: string) => statusOf.get(id) === 'CONFIRMED';
    return [...rows.filter((r) => !there.has(r._id) && confirmed(r._id)), ...(earlier as TradeRow[]).filter((t) => confirmed(String(t._id)))];
  }

  /**
   * After the batch's fills are final: recomputes each involved order's settled units and
   * reservation from its fills, moves MATCHED -> FILLED (all fills CONFIRMED) or -> MATCH_FAILED
   * (a fill FAILED), and returns the failed orders still resting (the market workflow removes them).
   */
  async function finishOrders(q: { tradeIds: string[]; failed: boolean }): Promise<{ resting: string[] }> {
    return finishWith(await afterSteps('settle.finishFills', () => findByIds(c.fills, fillIdsOf(q.tradeIds))), q.failed);
  }

  /** `finishOrders` given the batch's fills as stored. */
  async function finishWith(batchFills: FillRecord[], failed: boolean, reasons = new Map<string, string>()): Promise<{ resting: string[] }> {
    const now = new Date();
    const resting = new Set<string>();
    const events: RealtimeEvent[] = [];
    const holds = new Map<string, HoldLevel>();
    // An order row has two writers: the market's steps (engine state) and settlement (settled
    // units, the end of a MATCHED order). Each write here is guarded by what it was computed
    // from; one that a step or another settlement overtook is computed again from a fresh read.
    let orders = await afterSteps('settle.ordersRead', () => findByIds(c.orders, [...new Set(batchFills.map((f) => f.order_hash))]));
    for (let round = 1; orders.length > 0; round++) {
      if (round > MAX_FINISH_ROUNDS) throw new Error(`finishing orders: ${orders.length} still overtaken after ${MAX_FINISH_ROUNDS} rounds`);
      // Read after the orders: a settlement that moved an order before this read had marked its fills first.
      const others = await afterSteps('settle.otherFills', () => otherFillsOf(orders, batchFills));
      const fillsOf = new Map<string, FillRecord[]>();
      for (const f of [...batchFills, ...others]) {
        const own = fillsOf.get(f.order_hash);
        if (own) own.push(f);
        else fillsOf.set(f.order_hash, [f]);
      }
      const finished = orders.map((o) => ({ before: o, after: finishedOrder(o, fillsOf.get(o.order_hash) ?? [], failed, now, reasons.get(o.order_hash)) }));
      const writes = finished.map(({ before, after }) => ({
        updateOne: {
          filter: { _id: before.order_hash, applied_seq: before.applied_seq, status: before.status, settled_units: before.settled_units ?? { $exists: false } },
          update: { $set: { status: after.status, status_reason: after.status_reason ?? null, settled_units: after.settled_units, reserved_units: after.reserved_units, updated_at: now } },
        },
      }));
      const result = await afterSteps('settle.ordersWrite', () => c.orders.bulkWrite(writes as mongo.AnyBulkWriteOperation<StoredOrder>[], { ordered: false }));
      // All landed, or the rows as they are now: the ones that hold what was written landed, the
      // others go round again from these rows.
      const rows = result.matchedCount === writes.length ? undefined : new Map((await afterSteps('settle.ordersCheck', () => findByIds(c.orders, orders.map((o) => o.order_hash)))).map((o) => [o.order_hash, o]));
      orders = [];
      for (const { before, after } of finished) {
        const row = rows?.get(after.order_hash);
        if (rows && !row) continue; // gone: nothing to finish
        if (row && !holdsWritten(row, after)) {
          orders.push(row);
          continue;
        }
        // An order this finish leaves ended is announced even when its row already said so: that is
        // a retry whose lost attempt wrote it and died before publishing (a duplicate is harmless).
        if (after.status !== before.status || SETTLEMENT_ENDS.includes(after.status)) {
          events.push({ channel: 'user', wallet: after.wallet, payload: { type: 'order', order: presentOrder(after) } });
        }
        if (after.resting) resting.add(after.order_hash);
        holds.set(after.order_hash, holdLevelOf(after));
      }
    }
    if (holds.size > 0) events.push({ channel: 'holds', holds: [...holds.values()] });
    await publish(events);
    return { resting: [...resting] };
  }

  /** The orders' fills other than `known`, by the keys each order lists (`fill_ids`, written as it matched). */
  async function otherFillsOf(orders: StoredOrder[], known: FillRecord[]): Promise<FillRecord[]> {
    const have = new Set(known.map((f) => fillIdOf(f.trade_id, f.role)));
    return findByIds(c.fills, [...new Set(orders.flatMap((o) => o.fill_ids ?? []))].filter((id) => !have.has(id)));
  }

  /**
   * Groups whose match was refused because of `blamed` orders: every fill of theirs FAILED, those of
   * the other orders marked `returned`; the blamed orders end MATCH_FAILED with their reason. Answers
   * the units of the other orders to put back, and the blamed orders still resting (the market
   * workflow does both, as the book's only writer). Idempotent: recomputed from the fills.
   */
  async function unwindGroups(q: { groups: BlamedGroup[] }): Promise<{ returned: ReturnedOrder[]; failed: BlamedOrder[] }> {
    const tradeIds = q.groups.flatMap((g) => g.tradeIds);
    const blamed = q.groups.flatMap((g) => g.blamed.map((b) => ({ orderHash: b.orderHash.toLowerCase(), reason: b.reason })));
    const before = await afterSteps('settle.unwindFills', () => findByIds(c.fills, fillIdsOf(tradeIds)));
    const { returned } = returnsOf(before, blamed);
    const fills = await writeFillStatus({ groups: [{ tradeIds, txHash: '' }], status: 'FAILED', returnedOrders: returned.map((r) => r.hash) });
    const reasons = new Map(blamed.map((b) => [b.orderHash, b.reason]));
    const { resting } = await finishWith(fills.filter((f) => reasons.has(f.order_hash.toLowerCase())), true, reasons);
    return { returned, failed: resting.map((hash) => ({ orderHash: hash, reason: reasons.get(hash) ?? 'SETTLEMENT_FAILED' })) };
  }

  /**
   * The orders the market puts back (`unwindGroups`), as stored. One that ended meanwhile (cancelled,
   * expired) is not put back: its returned fills are final now, and what it held is released here.
   */
  async function loadReturnedOrders(q: { hashes: string[] }): Promise<ReturnedRow[]> {
    const rows = await afterSteps('settle.returnedOrders', () => findByIds(c.orders, q.hashes.map((h) => h.toLowerCase())));
    const ended = rows.filter((o) => !['OPEN', 'PARTIALLY_FILLED', 'MATCHED'].includes(o.status));
    if (ended.length > 0) await finishWith(await findByIds(c.fills, ended.flatMap((o) => o.fill_ids ?? [])), false);
    return rows.map((o) => ({
      ...toPlaceable(o), status: o.status, market_key: o.market_key, remaining: o.remaining_units, filled: o.filled_units, arrival: o.engine_arrival ?? null,
    }));
  }

  /** For the on-chain cancel watch: what the chain says of the order, and whether it ended anyway. */
  async function checkOrderOnChain(q: { orderHash: string }): Promise<{ market: MarketRef; ended: boolean; cancelled: boolean; nonceBumped: boolean }> {
    const order = await c.orders.findOne({ _id: q.orderHash.toLowerCase() });
    if (!order) return { market: { chain_id: 0, condition_id: '' }, ended: true, cancelled: false, nonceBumped: false };
    const market = { chain_id: order.chain_id, condition_id: order.condition_id };
    if (!['OPEN', 'PARTIALLY_FILLED'].includes(order.status)) return { market, ended: true, cancelled: false, nonceBumped: false };
    const doc = await c.markets.findOne(market);
    const seen = await chain.checkOrder(order.chain_id, String(doc?.ctf_exchange_address ?? ''), order);
    return { market, ended: false, ...seen };
  }

  return {
    sendSettlement, sendSettlements, awaitReceipt, awaitReceipts, awaitConfirmations, awaitConfirmationsOf, markFills, markFillsOf, finishOrders,
    sendAndAwaitReceipts, confirmFills, checkOrderOnChain, unwindGroups, loadReturnedOrders,
  };
}

/** An order the market puts back, as stored (`arrival`: the one it rested with, null if it never rested). */
export interface ReturnedRow extends PlaceableOrder {
  status: string;
  market_key: string;
  remaining: string;
  filled: string;
  arrival: number | null;
}

/** Failed receipt reads per warning while a node does not answer (at one poll a second, one line every ~30 s). */
const RECEIPT_FAILURES_PER_LOG = 30;

/** The ends of an order that settlement decides (MATCHED -> FILLED or MATCH_FAILED). */
const SETTLEMENT_ENDS: string[] = ['FILLED', 'MATCH_FAILED'];

/** Rounds of `finishWith` before it gives up to the activity's retry: each lost one is a step or settlement that wrote between its read and its write. */
const MAX_FINISH_ROUNDS = 5;

/**
 * An order as settlement leaves it, from its fills: settled units (fills final for good), what it
 * still reserves, and its end: MATCHED -> FILLED once every fill is CONFIRMED and covers what it
 * filled, any MATCHED order with a fill FAILED for good -> MATCH_FAILED (decisions.md; `reason`, or
 * SETTLEMENT_FAILED when the failure was not pinned on an order), whichever batch's fill failed.
 * An order still open with a failed fill of this batch is `resting`: the market workflow removes
 * it, as it owns every other transition. A `returned` fill (its match failed for another order)
 * counts for nothing while its order is open or MATCHED (the market puts it back, or has: its
 * filled units no longer hold it); once the order ended otherwise, it is final like any other.
 */
function finishedOrder(o: StoredOrder, fills: FillRecord[], failed: boolean, now: Date, reason?: string): StoredOrder & { resting: boolean } {
  const open = o.status === 'OPEN' || o.status === 'PARTIALLY_FILLED';
  const ended = !open && o.status !== 'MATCHED';
  const own = fills.filter((f) => !f.returned || ended);
  const settled = own.filter((f) => FINAL.includes(f.settlement_status)).reduce((sum, f) => sum + BigInt(f.size_units), 0n);
  const unsettled = BigInt(o.filled_units) - settled;
  const reserved = reservedUnitsOf(o, open ? BigInt(o.remaining_units) : 0n, unsettled);
  const anyFailed = own.some((f) => f.settlement_status === 'FAILED' && !f.returned);
  let status = o.status;
  let statusReason = o.status_reason;
  if (o.status === 'MATCHED' && anyFailed) {
    status = 'MATCH_FAILED';
    statusReason = statusReasonFor('MATCH_FAILED', reason);
  } else if (o.status === 'MATCHED' && own.length > 0 && own.every((f) => f.settlement_status === 'CONFIRMED') && settled === BigInt(o.filled_units)) {
    status = 'FILLED';
  }
  return {
    ...o, status, status_reason: statusReason, settled_units: settled.toString(), reserved_units: reserved.toString(), updated_at: now,
    resting: failed && anyFailed && open,
  };
}

/** Whether an order row holds what settlement's guarded write set (else another writer overtook it). */
function holdsWritten(row: StoredOrder, written: StoredOrder): boolean {
  return row.applied_seq === written.applied_seq && row.status === written.status
    && row.settled_units === written.settled_units && row.reserved_units === written.reserved_units;
}

/** YES ticks of a fill (its price is in its own outcome's terms). */
function yesTicks(f: FillRecord): number {
  const ticks = Math.round(Number(f.price) * 100);
  return f.outcome === 1 ? ticks : 100 - ticks;
}

export type SettlementActivities = ReturnType<typeof createSettlementActivities>;
