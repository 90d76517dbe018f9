/**
 * A wallet's dead-man switch (`heartbeat-{wallet}`). A signal arms it (`timeout_s` from when it
 * arrives) or disarms it (0: the workflow ends). Later heartbeats are not signals: the API writes
 * each wallet's last beat to the store (src/heartbeat/dead-man-switch.ts), and when the deadline
 * the run knows of has passed by the grace, it reads that beat and sleeps again if the wallet beat
 * since. Only a deadline truly missed takes every open order of the wallet off its market's book,
 * through that market's workflow (HEARTBEAT_EXPIRED), and ends the run; the next heartbeat arms a
 * new one. The timer is durable: a worker restart neither loses nor restarts it.
 */
import {
  condition, continueAsNew, getExternalWorkflowHandle, log, patched, proxyActivities, proxyLocalActivities, setHandler, workflowInfo,
} from '@temporalio/workflow';
import type { HeartbeatActivities } from '../activities/heartbeat.activities';
import { marketWorkflowId } from '../src/matching/market-ids';
import { DB_STEP, DB_STEP_LOCAL } from './activity-presets';
import { heartbeatSignal, MAX_CANCEL_HASHES, removeOrdersSignal, type Heartbeat } from './definitions';
import { HEARTBEAT_STORED_BEATS as STORED_BEATS } from './patches';

const db = proxyActivities<HeartbeatActivities>(DB_STEP);
const local = proxyLocalActivities<HeartbeatActivities>(DB_STEP_LOCAL);

/**
 * How long past a deadline the switch waits for beats still on their way to the store: the API
 * writes them every 250 ms (HEARTBEAT_FLUSH_MS), so a beat sent before the deadline is stored
 * well within it.
 */
export const HEARTBEAT_EXPIRY_GRACE_MS = 1_000;


export interface HeartbeatInput {
  wallet: string;
  /** Carried over by continue-as-new: the deadline in force (ms since the epoch). */
  deadline?: number;
  /** Carried over by continue-as-new: the timeout in force. */
  timeout_s?: number;
}

export type HeartbeatOutcome = 'DISARMED' | 'EXPIRED';

/** Signals one run takes before it continues as new (each is a few history events). */
const BEATS_PER_RUN = 2_000;

export async function heartbeatWorkflow(input: HeartbeatInput): Promise<HeartbeatOutcome> {
  let deadline = input.deadline ?? 0;
  let timeoutS = input.timeout_s ?? 0;
  let beats = 0;
  const pending: Heartbeat[] = [];
  setHandler(heartbeatSignal, (beat) => {
    pending.push(beat);
  });
  if (input.deadline === undefined && patched(STORED_BEATS)) await local.switchArmed({ wallet: input.wallet });
  for (;;) {
    for (const beat of pending.splice(0)) {
      beats += 1;
      timeoutS = beat.timeout_s;
      deadline = beat.timeout_s > 0 ? Date.now() + beat.timeout_s * 1000 : 0;
    }
    if (deadline === 0) {
      // The API re-arms a wallet only after its run has ended: say so.
      if (patched(STORED_BEATS)) await local.switchEnded({ wallet: input.wallet });
      return 'DISARMED';
    }
    if (beats >= BEATS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof heartbeatWorkflow>({ wallet: input.wallet, deadline, timeout_s: timeoutS });
    }
    const stored = patched(STORED_BEATS);
    const left = deadline + (stored ? HEARTBEAT_EXPIRY_GRACE_MS : 0) - Date.now();
    if (left <= 0) {
      if (!stored) break;
      const last = await local.lastBeatOf({ wallet: input.wallet });
      if (last !== null && last + timeoutS * 1000 > deadline) {
        deadline = last + timeoutS * 1000;
        continue;
      }
      // An arm that came in during the read is taken before anything is pulled.
      if (pending.length > 0) continue;
      break;
    }
    await condition(() => pending.length > 0, left);
  }
  // Written before the orders are pulled: a beat from now on arms the switch again.
  if (patched(STORED_BEATS)) await local.switchEnded({ wallet: input.wallet });
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
  if (last && last.timeout_s > 0) {
    await continueAsNew<typeof heartbeatWorkflow>({ wallet: input.wallet, deadline: Date.now() + last.timeout_s * 1000, timeout_s: last.timeout_s });
  }
  return 'EXPIRED';
}
