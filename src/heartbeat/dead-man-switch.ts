/**
 * The API's side of the wallets' dead-man switches. A heartbeat is a write to memory (the wallet's
 * last beat), flushed every `flushMs` in one bulk write to the heartbeats store, where the switch's
 * workflow reads it when its timer runs out. The workflow is signalled only to arm (the first beat
 * this process sees for a wallet, a new timeout, a beat after the run it armed has ended) and to
 * disarm: signals follow arms, not beats, and the beats never queue in front of market steps.
 */
import type { Logger } from '../logging/logger';
import { HEARTBEAT_EXPIRY_GRACE_MS } from '../../workflows/heartbeat.workflow';
import type { HeartbeatStore } from './beat-store';

/** How often beats reach the store; the workflow waits HEARTBEAT_EXPIRY_GRACE_MS past a deadline for them. */
export const HEARTBEAT_FLUSH_MS = 250;

export interface DeadManSwitch {
  /** `timeoutS` 0 disarms. `expires_at`: when the wallet's orders are pulled unless another heartbeat comes. */
  beat(wallet: string, timeoutS: number): Promise<{ armed: boolean; expires_at: string | null }>;
}

export interface BufferedDeadManSwitch extends DeadManSwitch {
  /** Writes the beats held now (the timer does this every `flushMs`). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is held. */
  close(): Promise<void>;
}

/** The switch workflow's two signals (src/temporal/heartbeat.client.ts). */
export interface SwitchSignals {
  arm(wallet: string, timeoutS: number): Promise<void>;
  disarm(wallet: string): Promise<void>;
}

interface ArmedSwitch {
  timeoutS: number;
  /** When this process sent the arm signal (before sending: a run ending later than this may be the one armed). */
  armedAt: number;
  lastBeat: number;
}

export interface DeadManSwitchDeps {
  signals: SwitchSignals;
  store: HeartbeatStore;
  logger?: Logger;
  flushMs?: number;
  clock?: () => number;
}

export function createDeadManSwitch({ signals, store, logger, flushMs = HEARTBEAT_FLUSH_MS, clock = Date.now }: DeadManSwitchDeps): BufferedDeadManSwitch {
  const armed = new Map<string, ArmedSwitch>();
  const arming = new Map<string, Promise<void>>();
  let held = new Map<string, number>();
  let flushing: Promise<void> | undefined;

  const arm = (wallet: string, timeoutS: number, beatAt: number): Promise<void> => {
    const key = `${wallet}|${timeoutS}`;
    const inFlight = arming.get(key);
    if (inFlight) return inFlight;
    const armedAt = clock();
    const sent = signals.arm(wallet, timeoutS).then(
      () => {
        armed.set(wallet, { timeoutS, armedAt, lastBeat: Math.max(beatAt, armed.get(wallet)?.lastBeat ?? 0) });
      },
    ).finally(() => arming.delete(key));
    arming.set(key, sent);
    return sent;
  };

  const hold = (wallet: string, at: number) => {
    if (!((held.get(wallet) ?? 0) >= at)) held.set(wallet, at);
  };

  async function writeHeld(): Promise<void> {
    if (held.size === 0) return;
    const batch = held;
    held = new Map();
    let ended: Map<string, number>;
    try {
      ended = await store.recordBeats(batch);
    } catch (error) {
      // Kept for the next flush: the workflow's grace covers a short outage, not a long one.
      for (const [wallet, at] of batch) hold(wallet, at);
      logger?.warn({ err: error, wallets: batch.size }, 'heartbeats not written; retrying');
      return;
    }
    const rearms: Promise<void>[] = [];
    for (const [wallet, at] of batch) {
      const end = ended.get(wallet);
      const known = armed.get(wallet);
      if (end === undefined || !known || end < known.armedAt) continue;
      // The run this process armed has ended (it expired, or another process disarmed it).
      armed.delete(wallet);
      // A beat after that end arms a new run; a beat before it arms nothing.
      if (at > end) rearms.push(arm(wallet, known.timeoutS, at).catch((error: unknown) => logger?.warn({ err: error, wallet }, 'heartbeat switch not re-armed; the next beat arms it')));
    }
    await Promise.all(rearms);
    // A switch quiet here past its deadline has fired, or beats through another process: either way
    // the next beat here signals an arm, which is harmless when the run is alive.
    const stale = clock() - HEARTBEAT_EXPIRY_GRACE_MS;
    for (const [wallet, known] of armed) if (known.lastBeat + known.timeoutS * 1000 < stale) armed.delete(wallet);
  }

  const flush = (): Promise<void> => {
    flushing ??= writeHeld().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };
  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    async beat(wallet, timeoutS) {
      const w = wallet.toLowerCase();
      if (timeoutS === 0) {
        armed.delete(w);
        held.delete(w);
        await signals.disarm(w);
        return { armed: false, expires_at: null };
      }
      const at = clock();
      hold(w, at);
      const known = armed.get(w);
      if (known && known.timeoutS === timeoutS) known.lastBeat = Math.max(known.lastBeat, at);
      else await arm(w, timeoutS, at);
      return { armed: true, expires_at: new Date(at + timeoutS * 1000).toISOString() };
    },
    flush,
    async close() {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}
