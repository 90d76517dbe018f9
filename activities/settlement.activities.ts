/**
 * Activities of settlement and of the on-chain cancel watch. Chain calls go through the
 * `SettlementChain` port; the fills' and orders' status moves are idempotent (monotonic guards,
 * recomputed sums) so retries never double-apply.
 */
import { Context } from '@temporalio/activity';
import type { RealtimeEvent, RealtimePublisher } from '../src/contracts/realtime-publisher';
import type { Logger } from '../src/logging/logger';
import type { FillRecord, MatchingCollections, StoredOrder } from '../src/matching/collections';
import { fillIdsOf, type MarketRef } from '../src/matching/market-ids';
import { presentFill, presentOrder } from '../src/matching/present';
import { SettlementChainError, type SettlementChain, type SettlementLeg, type SettlementTrade } from '../src/settlement/settlement-chain';
import { reserveOf } from './market.activities';

export interface SettlementActivityDeps {
  collections: MatchingCollections;
  publisher: RealtimePublisher;
  logger: Logger;
  chain: SettlementChain;
  /** Receipt polling interval (ms); default 1000. */
  pollMs?: number;
}

type FillStatus = FillRecord['settlement_status'];
const FINAL: FillStatus[] = ['CONFIRMED', 'FAILED'];

export function createSettlementActivities({ collections: c, publisher, logger, chain, pollMs = 1_000 }: SettlementActivityDeps) {
  const publish = async (events: RealtimeEvent[]) => {
    try {
      if (events.length > 0) await publisher.publish(events);
    } catch (error) {
      logger.error({ err: error }, 'publishing a settlement step failed');
    }
  };

  async function sendSettlement(q: { batchId: string; market: MarketRef; tradeIds: string[]; attempt: number }): Promise<{ ok: true; txHash: string } | { ok: false; transient: boolean; message: string }> {
    const market = await c.markets.findOne({ chain_id: q.market.chain_id, condition_id: q.market.condition_id });
    const fills = await c.fills.find({ _id: { $in: fillIdsOf(q.tradeIds) } }).toArray();
    const orders = await c.orders.find({ _id: { $in: [...new Set(fills.map((f) => f.order_hash))] } }).toArray();
    const orderOf = new Map(orders.map((o) => [o.order_hash, o]));
    const trades: SettlementTrade[] = [];
    for (const tradeId of q.tradeIds) {
      const maker = fills.find((f) => f.trade_id === tradeId && f.role === 'maker');
      const taker = fills.find((f) => f.trade_id === tradeId && f.role === 'taker');
      if (!maker || !taker || !orderOf.get(maker.order_hash) || !orderOf.get(taker.order_hash)) {
        return { ok: false, transient: false, message: `trade ${tradeId} has no complete fills` };
      }
      const leg = (f: FillRecord): SettlementLeg => ({ order: orderOf.get(f.order_hash)!, size: f.size_units, collateral: f.collateral_units, fee: f.fee_units });
      trades.push({ tradeId, kind: maker.kind, yesPrice: yesTicks(maker), size: maker.size_units, maker: leg(maker), taker: leg(taker) });
    }
    try {
      const txHash = await chain.submitMatch({
        batchId: q.batchId, attempt: q.attempt, chain_id: q.market.chain_id, exchange: String(market?.ctf_exchange_address ?? ''), trades,
      });
      return { ok: true, txHash };
    } catch (error) {
      const transient = error instanceof SettlementChainError ? error.transient : true;
      logger.warn({ err: error, batchId: q.batchId, attempt: q.attempt }, 'settlement send failed');
      return { ok: false, transient, message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Polls until the transaction is mined (heartbeating); success false when it reverted. */
  async function awaitReceipt(q: { chainId: number; txHash: string }): Promise<{ success: boolean; blockNumber: string }> {
    for (;;) {
      const r = await chain.getReceipt(q.chainId, q.txHash);
      if (r.status !== 'pending') return { success: r.status === 'success', blockNumber: r.blockNumber };
      Context.current().heartbeat();
      await Context.current().sleep(pollMs);
    }
  }

  /** Polls until the receipt has enough confirmations; confirmed false when it left the chain (reorg) or reverted. */
  async function awaitConfirmations(q: { chainId: number; txHash: string }): Promise<{ confirmed: boolean }> {
    for (;;) {
      const r = await chain.getReceipt(q.chainId, q.txHash);
      if (r.status !== 'success') return { confirmed: false };
      if (r.confirmations >= chain.requiredConfirmations) return { confirmed: true };
      Context.current().heartbeat();
      await Context.current().sleep(pollMs);
    }
  }

  /** Moves the batch's fills (and public trades) to `status`, never out of CONFIRMED or FAILED. */
  async function markFills(q: { tradeIds: string[]; status: FillStatus; txHash: string }): Promise<void> {
    const now = new Date();
    const fillIds = fillIdsOf(q.tradeIds);
    const unsettled = { settlement_status: { $nin: FINAL } };
    const set = { settlement_status: q.status, updated_at: now, ...(q.txHash ? { tx_hash: q.txHash } : {}) };
    await c.fills.updateMany({ _id: { $in: fillIds }, ...unsettled }, { $set: set });
    await c.trades.updateMany({ _id: { $in: q.tradeIds }, ...unsettled }, { $set: { settlement_status: q.status } });
    const fills = await c.fills.find({ _id: { $in: fillIds } }).toArray();
    await publish(fills.map((f) => ({ channel: 'user', wallet: f.wallet, payload: { type: 'fill', fill: presentFill(f) } })));
  }

  /**
   * After the batch's fills are final: recomputes each involved order's settled units and
   * reservation from its fills, moves MATCHED -> FILLED (all fills CONFIRMED) or -> MATCH_FAILED
   * (a fill FAILED), and returns the failed orders still resting (the market workflow removes them).
   */
  async function finishOrders(q: { tradeIds: string[]; failed: boolean }): Promise<{ resting: string[] }> {
    const now = new Date();
    const batchFills = await c.fills.find({ _id: { $in: fillIdsOf(q.tradeIds) } }).toArray();
    const hashes = [...new Set(batchFills.map((f) => f.order_hash))];
    const orders = await c.orders.find({ _id: { $in: hashes } }).toArray();
    const allFills = await fillsOfOrders(orders);
    const resting: string[] = [];
    const changed: StoredOrder[] = [];
    for (const o of orders) {
      const own = allFills.filter((f) => f.order_hash === o.order_hash);
      const settled = own.filter((f) => FINAL.includes(f.settlement_status)).reduce((sum, f) => sum + BigInt(f.size_units), 0n);
      const unsettled = BigInt(o.filled_units) - settled;
      const open = o.status === 'OPEN' || o.status === 'PARTIALLY_FILLED';
      const reserved = reserveOf(o.side, o.price_ticks, (open ? BigInt(o.remaining_units) : 0n) + (unsettled > 0n ? unsettled : 0n));
      let status = o.status;
      if (q.failed && own.some((f) => f.settlement_status === 'FAILED')) {
        if (o.status === 'MATCHED') status = 'MATCH_FAILED';
        else if (open) resting.push(o.order_hash);
      } else if (o.status === 'MATCHED' && own.length > 0 && own.every((f) => f.settlement_status === 'CONFIRMED')) {
        status = 'FILLED';
      }
      // Status moves only from MATCHED here: the market workflow owns every other transition.
      const from = status !== o.status ? { status: 'MATCHED' as const } : {};
      const res = await c.orders.updateOne({ _id: o.order_hash, ...from }, { $set: { status, settled_units: settled.toString(), reserved_units: reserved.toString(), updated_at: now } });
      if (res.modifiedCount > 0 && status !== o.status) changed.push({ ...o, status, updated_at: now });
    }
    await publish(changed.map((o) => ({ channel: 'user', wallet: o.wallet, payload: { type: 'order', order: presentOrder(o) } })));
    return { resting };
  }

  /** Every fill of the orders, by the keys each order lists (`fill_ids`, written as it matched). */
  async function fillsOfOrders(orders: StoredOrder[]): Promise<FillRecord[]> {
    const ids = [...new Set(orders.flatMap((o) => o.fill_ids ?? []))];
    const fills: FillRecord[] = [];
    for (let i = 0; i < ids.length; i += 500) fills.push(...(await c.fills.find({ _id: { $in: ids.slice(i, i + 500) } }).toArray()));
    return fills;
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

  return { sendSettlement, awaitReceipt, awaitConfirmations, markFills, finishOrders, checkOrderOnChain };
}

/** YES ticks of a fill (its price is in its own outcome's terms). */
function yesTicks(f: FillRecord): number {
  const ticks = Math.round(Number(f.price) * 100);
  return f.outcome === 1 ? ticks : 100 - ticks;
}

export type SettlementActivities = ReturnType<typeof createSettlementActivities>;
