/** The market workflow's activities: ordinary ones on the task queue, and local ones in its own worker. */
import { patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { MarketActivities } from '../../activities/market.activities';
import { DB_STEP, DB_STEP_LOCAL } from '../activity-presets';
import { LOCAL_STEP_ACTIVITIES } from '../patches';

export const db = proxyActivities<MarketActivities>(DB_STEP);
export const local = proxyLocalActivities<MarketActivities>(DB_STEP_LOCAL);

/**
 * The activities of a placement step: local ones in runs that have LOCAL_STEP_ACTIVITIES (no
 * task-queue round trip per activity, no waiting behind settlement activities on the shared queue).
 */
export function step(): Pick<MarketActivities, 'loadOrdersForPlacement' | 'applyMatchBatch'> {
  return patched(LOCAL_STEP_ACTIVITIES) ? local : db;
}
