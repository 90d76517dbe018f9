import type { OrderTimeline } from './order-timeline';

const STEP_NAMES: Record<string, string> = {
  ACCEPTED: 'accepted', REACHED_BOOK: 'reached book', FILL: 'fill', WORKFLOW: 'workflow', FINAL: 'final', NOW: 'now',
};

/** The timeline as text: a header, then one line per step (time, step, what, and the run's UI page). */
export function timelineLines(t: OrderTimeline): string[] {
  const lines = [`order ${t.order_hash}  wallet ${t.wallet}  market ${t.market_key}  ${t.status}${t.status_reason ? ` (${t.status_reason})` : ''}`];
  for (const e of t.events) {
    const by = e.workflow ? `  [${e.workflow.workflow_id}${e.workflow.status ? ` ${e.workflow.status}` : ''}]${e.workflow.url ? ` ${e.workflow.url}` : ''}` : '  [API]';
    lines.push(`${e.at ?? '-'.padEnd(24)}  ${(STEP_NAMES[e.step] ?? e.step).padEnd(12)}  ${e.summary}${by}`);
  }
  return lines;
}
