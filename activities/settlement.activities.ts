/**
 * Activities of settlement and of the on-chain cancel watch. Chain calls go through the
 * `SettlementChain` port; the fills' and orders' status moves are idempotent (monotonic guards,
 * recomputed sums) so retries never double-apply.
 */
import { settlementContextOf, type SettlementActivityDeps } from './settlement/context';
import { createFillConfirmation } from './settlement/confirm-fills';
import { createFillStatusWrites } from './settlement/fill-status';
import { createOrderFinish } from './settlement/finish-orders';
import { createGroupTrades } from './settlement/group-trades';
import { createOnchainCancelCheck } from './settlement/onchain-cancel-check';
import { createPublicTrades } from './settlement/public-trades';
import { createReceiptWaits } from './settlement/receipts';
import { createRefusalChecks } from './settlement/refused-groups';
import { createReturnedOrders } from './settlement/returned-orders';
import { createSendAndAwait } from './settlement/send-and-await';
import { createGroupSends } from './settlement/send-groups';
import { createSendFailures } from './settlement/send-outcomes';

export type { SettlementActivityDeps } from './settlement/context';
export type { ReturnedRow } from './settlement/returned-orders';

/** The settlement activities, registered by these names: running histories call them by name. */
export function createSettlementActivities(deps: SettlementActivityDeps) {
  const ctx = settlementContextOf(deps);
  const failures = createSendFailures(ctx);
  const refusals = createRefusalChecks(ctx);
  const receipts = createReceiptWaits(ctx);
  const sends = createGroupSends(ctx, createGroupTrades(ctx), failures, refusals);
  const fills = createFillStatusWrites(ctx, createPublicTrades(ctx));
  const finish = createOrderFinish(ctx);
  return {
    // One group per send: the runs recorded before batched settlement still call it.
    sendSettlement: sends.sendOneGroup,
    sendSettlements: sends.sendStepGroups,
    awaitReceipt: receipts.awaitReceipt,
    awaitReceipts: receipts.awaitReceipts,
    awaitConfirmations: receipts.awaitConfirmations,
    awaitConfirmationsOf: receipts.awaitConfirmationsOf,
    markFills: fills.markFills,
    markFillsOf: fills.markFillsOf,
    finishOrders: finish.finishOrders,
    ...createSendAndAwait(ctx, sends, receipts, failures, refusals),
    ...createFillConfirmation(fills, finish),
    ...createOnchainCancelCheck(ctx),
    ...createReturnedOrders(ctx, fills, finish),
  };
}

export type SettlementActivities = ReturnType<typeof createSettlementActivities>;
