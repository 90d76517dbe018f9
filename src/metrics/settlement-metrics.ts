import { matchedToSettled, settlementFills } from './metrics';

const FINAL = new Set(['CONFIRMED', 'FAILED']);

/** A settlement status written for fills: counted per fill; a final one also times match to settlement. */
export function observeFillStatus(status: string, fills: readonly { settlement_status: string; created_at: Date }[], now: Date): void {
  for (const f of fills) {
    if (f.settlement_status !== status) continue; // final before with another status: not this write's
    settlementFills.inc({ status });
    if (FINAL.has(status)) matchedToSettled.observe({ status }, Math.max(0, now.getTime() - new Date(f.created_at).getTime()) / 1000);
  }
}
