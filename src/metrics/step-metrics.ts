import { marketStepDuration, marketStepOrders, marketSteps, marketStepTrades, postToMatched, secondsSince } from './metrics';

/**
 * One market step written: its duration, the orders it wrote, its new trades (two fills each) and,
 * per taker fill, the time since its order was accepted (the order's created_at, set by POST).
 */
export function observeStep(step: { started: number; orders: number; newFills: number; takerCreatedAt: (Date | undefined)[] }): void {
  marketSteps.inc();
  marketStepDuration.observe(secondsSince(step.started));
  marketStepOrders.observe(step.orders);
  marketStepTrades.inc(step.newFills / 2);
  const now = Date.now();
  for (const createdAt of step.takerCreatedAt) if (createdAt) postToMatched.observe(Math.max(0, now - new Date(createdAt).getTime()) / 1000);
}
