/**
 * A wallet's dead-man switch (`heartbeat-{wallet}`): each heartbeat signal sets the deadline to
 * `timeout_s` from when it arrives; 0 disarms (the workflow ends). When the deadline passes with no
 * heartbeat, every open order of the wallet is taken off its market's book through that market's
 * workflow (HEARTBEAT_EXPIRED), and the workflow ends; the next heartbeat arms a new run. The
 * deadline is a durable timer: a worker restart neither loses nor restarts it.
 */
import { condition, continueAsNew, getExternalWorkflowHandle, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { HeartbeatActivities } from '../activities/heartbeat.activities';
import { marketWorkflowId } from '../src/matching/market-ids';
import { DB_STEP } from './activity-presets';
import { heartbeatSignal, MAX_CANCEL_HASHES, removeOrdersSignal, type Heartbeat } from './definitions';

const db = proxyActivities<HeartbeatActivities>(DB_STEP);

export interface HeartbeatInput {
  wallet: string;
  /** Carried over by continue-as-new: the deadline in force (ms since the epoch). */
  deadline?: number;
}

export type HeartbeatOutcome = 'DISARMED' | 'EXPIRED';

/** Heartbeats one run takes before it continues as new (each is a few history events). */
const BEATS_PER_RUN = 2_000;

export async function heartbeatWorkflow(input: HeartbeatInput): Promise<HeartbeatOutcome> {
  let deadline = input.deadline ?? 0;
  let beats = 0;
  const pending: Heartbeat[] = [];
  setHandler(heartbeatSignal, (beat) => {
    pending.push(beat);
  });
  for (;;) {
    for (const beat of pending.splice(0)) {
      beats += 1;
      deadline = beat.timeout_s > 0 ? Date.now() + beat.timeout_s * 1000 : 0;
    }
    if (deadline === 0) return 'DISARMED';
    if (beats >= BEATS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof heartbeatWorkflow>({ wallet: input.wallet, deadline });
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await condition(() => pending.length > 0, left);
  }
  const open = await db.openOrdersOfWallet({ wallet: input.wallet });
  for (const { market, hashes } of open) {
    try {
      const handle = getExternalWorkflowHandle(marketWorkflowId(market));
      for (let i = 0; i < hashes.length; i += MAX_CANCEL_HASHES) {
        await handle.signal(removeOrdersSignal, { hashes: hashes.slice(i, i + MAX_CANCEL_HASHES), reason: 'HEARTBEAT_EXPIRED', at: Date.now() });
      }
    } catch (error) {
      // A market with no workflow running has no book to take them off.
      log.warn('heartbeat expiry: market workflow not signalled', { market: marketWorkflowId(market), error: String(error) });
    }
  }
  // A heartbeat that came in while the orders were being pulled arms the switch again.
  const last = pending.at(-1);
  if (last && last.timeout_s > 0) await continueAsNew<typeof heartbeatWorkflow>({ wallet: input.wallet, deadline: Date.now() + last.timeout_s * 1000 });
  return 'EXPIRED';
}
