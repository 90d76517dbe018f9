/** A retried step that decided other fills than its first attempt: reported, the stored ones kept. */
import { findByIds, type FillRecord } from '../../src/matching/collections';
import type { MarketRef } from '../../src/matching/market-ids';
import type { MarketContext } from './context';

export function createDivergenceReport({ c, logger }: MarketContext) {
  /**
   * Fills of this step that were there already (`existing`: a retried step) must be the ones it
   * decides now. A step re-decided after a lost workflow task can differ (docs/matching.md, "Worker
   * died mid-step"): the first writer's fills stay, and this says so loudly, naming both versions,
   * for an operator to reconcile, instead of leaving it silent.
   */
  async function reportDivergence(market: MarketRef, fills: FillRecord[], existing: string[]): Promise<void> {
    if (existing.length === 0) return;
    const decided = new Map(fills.map((f) => [f._id, f]));
    const differs = (await findByIds(c.fills, existing)).filter((stored) => {
      const now = decided.get(stored._id);
      return now !== undefined && DIVERGENCE_KEYS.some((k) => stored[k] !== now[k]);
    });
    if (differs.length === 0) return;
    const pick = (f: FillRecord) => Object.fromEntries(DIVERGENCE_KEYS.map((k) => [k, f[k]]));
    logger.error({
      market, fills: differs.map((stored) => ({ id: stored._id, stored: pick(stored), decided: pick(decided.get(stored._id)!) })),
    }, 'market step diverged from an earlier attempt of the same step: the stored fills were kept (docs/matching.md, "Worker died mid-step")');
  }

  return { reportDivergence };
}

/** What makes a fill the same decision: its order, side of the trade, size and counterparty. */
const DIVERGENCE_KEYS = ['order_hash', 'role', 'size_units', 'counter_order_hash'] as const;
