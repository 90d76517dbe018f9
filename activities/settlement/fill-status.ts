/**
 * Moving fills (and their public trades) to a settlement status, never out of CONFIRMED or FAILED,
 * with what follows: failed fills leave positions, confirmed ones enter candles, and the events.
 */
import { applyTrades } from '../../src/candles/candle-store';
import { confirmedTradesOf } from '../../src/candles/confirmed-trades';
import { timed } from '../../src/logging/stage-timings';
import { findByIds, type FillRecord } from '../../src/matching/collections';
import { fillIdOf, fillIdsOf } from '../../src/matching/market-ids';
import { presentFill, presentSettledTrade } from '../../src/presenters/present-fill';
import { observeFillStatus } from '../../src/metrics/settlement-metrics';
import type { RealtimeEvent, SpendLevel } from '../../src/ports/realtime-publisher';
import { positionRowIdOf, refoldPositions } from '../../src/positions/position-rows';
import { FINAL, NOT_FINAL, type FillStatus, type SettlementContext } from './context';
import type { PublicTrades } from './public-trades';

/** A status for the fills of each group (each group with its own transaction). */
export interface FillStatusWrite {
  groups: { tradeIds: string[]; txHash: string }[];
  status: FillStatus;
  /** Statuses the fills went through on the way, announced before `status` (not written). */
  passedThrough?: FillStatus[];
  /** Orders whose fills are marked `returned` (their match failed for another order; they go back). */
  returnedOrders?: string[];
}
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

export function createFillStatusWrites({ c, afterSteps, publish }: SettlementContext, { writeTrades }: PublicTrades) {
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

  return { markFills, markFillsOf, writeFillStatus };
}

export type FillStatusWrites = ReturnType<typeof createFillStatusWrites>;
