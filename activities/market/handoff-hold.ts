/** Holding a market's hand-offs in every process that sends them. */
import type { MarketRef } from '../../src/matching/market-ids';
import type { MarketContext } from './context';

export function createHandoffHold({ publisher, handoffs }: MarketContext) {
  /**
   * Holds the market's hand-offs for up to `holdMs` in every process that sends them (0: sends them
   * now): this worker's own (the sweeper) at once, the API processes' through the realtime fan-out.
   * Resolves once the fan-out has them (push: every API process answered), and `drainMs` later:
   * the hand-off signals sent before the hold took effect land meanwhile.
   */
  async function holdHandoffs(q: { market: MarketRef; holdMs: number; drainMs?: number }): Promise<void> {
    handoffs?.hold(q.market, q.holdMs);
    await publisher.publish([{ channel: 'handoffs', chain_id: q.market.chain_id, condition_id: q.market.condition_id, hold_ms: q.holdMs }]);
    if (q.drainMs) await new Promise((resolve) => setTimeout(resolve, q.drainMs));
  }

  return { holdHandoffs };
}
