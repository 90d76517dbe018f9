/**
 * Settlement's side of a match that failed because of some of its orders (leg blame): the fills
 * fail, the blamed orders end MATCH_FAILED with their reason, and the market workflow (the book's
 * only writer) gets the other orders back, and the blamed ones still resting to remove.
 */
import { getExternalWorkflowHandle } from '@temporalio/workflow';
import type { SettlementActivities } from '../activities/settlement.activities';
import type { BlamedGroup } from '../activities/settlement/blamed-returns';
import { marketWorkflowId, type MarketRef } from '../src/matching/market-ids';
import { returnOrdersSignal } from './definitions';

export async function unwindBlamed(db: SettlementActivities, market: MarketRef, groups: BlamedGroup[]): Promise<void> {
  const { returned, failed } = await db.unwindGroups({ groups });
  if (returned.length === 0 && failed.length === 0) return;
  await getExternalWorkflowHandle(marketWorkflowId(market)).signal(returnOrdersSignal, { returned, failed, at: Date.now() });
}
