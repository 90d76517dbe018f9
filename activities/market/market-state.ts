/** A run's start: the market, its engine counters and last price, and an earlier run's last step finished. */
import { marketKeyOf, type MarketRef } from '../../src/matching/market-ids';
import type { BatchWrite, EngineCounters, MarketInfo, MarketStatus } from '../../src/matching/payloads';
import type { MarketContext } from './context';
import type { StepWrites } from './step-write';

export function createMarketStateLoad({ c, logger }: MarketContext, { writeStep }: StepWrites) {
  /**
   * The market, its engine counters and last price, at the start of a run. `run.runId`: the
   * step claims of the market's earlier runs are dropped (a run that ended had its steps recorded).
   */
  async function loadMarketState(market: MarketRef, run?: { runId: string }): Promise<{ info: MarketInfo; counters: EngineCounters | null; lastPrice: number | null }> {
    const filter = { chain_id: market.chain_id, condition_id: market.condition_id };
    if (run) await finishEarlierRun(market, run.runId);
    const dropped = run ? c.steps.deleteMany({ market_key: marketKeyOf(market), run_id: { $ne: run.runId } }) : undefined;
    const [doc, state, ticker] = await Promise.all([c.markets.findOne(filter), c.bookStates.findOne(filter), c.tickers.findOne(filter), dropped]);
    const info: MarketInfo = doc
      ? {
        found: true, status: doc.status as MarketStatus, resolution_outcome: (doc.resolution_outcome ?? null) as 0 | 1 | null,
        decimals: Number((doc.tokens as { decimals: number }[] | undefined)?.[0]?.decimals ?? 18), fee_rate_bps: Number(doc.fee_rate_bps ?? 0),
      }
      : { found: false, status: 'PAUSED', resolution_outcome: null, decimals: 18, fee_rate_bps: 0 };
    if (!doc) logger.warn({ market }, 'market workflow started for an unknown market: placements are refused');
    const counters = state && typeof state.engine_seq === 'number'
      ? { seq: state.engine_seq, bookSeq: Math.max(state.engine_book_seq ?? 0, state.seq ?? 0), tradeSeq: state.engine_trade_seq ?? 0, arrival: state.engine_arrival ?? 0 }
      : null;
    const lastPrice = typeof ticker?.last_price === 'string' ? Math.round(Number(ticker.last_price) * 100) : null;
    return { info, counters, lastPrice };
  }

  /**
   * Writes the market's last placement step again when an earlier run wrote it
   * (src/matching/step-journal.ts, `LastStepWrite`). A run terminated while that step's write was
   * failing left it half-written: a maker whose row was not written yet would rest again with its
   * old size and match a second time, a taker still `handoff: PENDING` would be handed over again.
   * Every write of a step is guarded, so a finished step (the usual case: the run continued as
   * new) writes nothing and publishes nothing.
   */
  async function finishEarlierRun(market: MarketRef, runId: string): Promise<void> {
    const last = await c.lastSteps.findOne({ _id: marketKeyOf(market) });
    if (!last || last.run_id === runId) return;
    const wrote = await writeStep(JSON.parse(last.write_json) as BatchWrite, { again: true });
    if (wrote.again) logger.warn({ market, step: last.step }, 'an earlier run left its last step half-written: written in full before the book is rebuilt');
  }

  return { loadMarketState };
}
