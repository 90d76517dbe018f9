/**
 * Dead-man switch load beside a matching phase: `wallets` each POST /v1/heartbeat once a second,
 * the beats spread evenly over the second (one every 1000/N ms), as many bots on their own clocks
 * send them. At most `maxInFlight` beats are outstanding; a beat due while that many wait is
 * skipped and counted, so a slow service meets a bounded load, not a growing queue. The beats go
 * over raw keep-alive sockets (bench/raw-http-lane.ts): the generator shares the cores it measures.
 */
import { performance } from 'node:perf_hooks';
import { keccak256, toHex } from 'viem';
import { RawHttpLane, type RawAnswer } from '../raw-http-lane';
import { devJwt } from './setup';
import { percentile, round1 } from './stats';

export interface HeartbeatWallet {
  address: string;
  jwt: string;
}

export interface HeartbeatStats {
  wallets: number;
  timeout_s: number;
  seconds: number | null;
  sent: number;
  ok: number;
  failed: number;
  skipped: number;
  beats_per_s: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
  error_samples: string[];
}

/** Wallets with no funds and no keys: the route needs only an authenticated wallet. */
export async function heartbeatWallets(jwtSecret: string, count: number): Promise<HeartbeatWallet[]> {
  const secret = new TextEncoder().encode(jwtSecret);
  return Promise.all(Array.from({ length: count }, async (_, i) => {
    const address = `0x${keccak256(toHex(`predex e2e heartbeat wallet ${i}`)).slice(-40)}`;
    return { address, jwt: await devJwt(secret, address) };
  }));
}

export interface HeartbeatLoad {
  /** Stops sending, waits for the beats in flight, and says what was sent. */
  stop(): Promise<HeartbeatStats>;
  /** Resolves when every wallet has had a beat answered 200 (its switch armed), or at `timeoutMs`: seconds taken, null if not all. */
  allArmed(timeoutMs: number): Promise<number | null>;
}

/**
 * Starts the beats: every wallet once per second with `timeoutS` (0 disarms); with `once`, each
 * wallet beats a single time (spread over one second) and the load ends by itself.
 */
export function startHeartbeats(api: string, wallets: HeartbeatWallet[], timeoutS: number, options: { maxInFlight?: number; once?: boolean } = {}): HeartbeatLoad {
  const maxInFlight = options.maxInFlight ?? 200;
  const path = '/v1/heartbeat';
  const body = JSON.stringify({ timeout_s: timeoutS });
  const inFlight = new Set<Promise<void>>();
  const requestMs: number[] = [];
  const errors: string[] = [];
  let issued = 0;
  let ok = 0;
  let failed = 0;
  let skipped = 0;
  const t0 = performance.now();
  const answered = new Set<string>();
  let armedAt: number | undefined;
  let onArmed = () => {};

  // Keep-alive connections, one beat at a time each, at most one per beat in flight.
  const idle: RawHttpLane[] = [];
  const laneFor = async (): Promise<RawHttpLane> => {
    for (let lane = idle.pop(); lane; lane = idle.pop()) if (!lane.closed) return lane;
    return RawHttpLane.open(api);
  };
  const send = async (wallet: HeartbeatWallet): Promise<RawAnswer> => {
    const lane = await laneFor();
    const answer = await lane.post(path, body, `Authorization: Bearer ${wallet.jwt}\r\n`).catch((error: unknown) => {
      lane.close();
      throw error;
    });
    idle.push(lane);
    return answer;
  };

  const beat = (wallet: HeartbeatWallet) => {
    const start = performance.now();
    const p = send(wallet).then(
      (res) => {
        if (res.status === 200) {
          ok += 1;
          requestMs.push(performance.now() - start);
          answered.add(wallet.address);
          if (armedAt === undefined && answered.size === wallets.length) {
            armedAt = performance.now();
            onArmed();
          }
          return;
        }
        failed += 1;
        if (errors.length < 5) errors.push(`HTTP ${res.status}: ${res.body.slice(0, 200)}`);
      },
      (error: unknown) => {
        failed += 1;
        if (errors.length < 5) errors.push(error instanceof Error ? error.message : String(error));
      },
    ).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  const limit = options.once ? wallets.length : Infinity;
  let allIssued = () => {};
  const issuedAll = new Promise<void>((resolve) => {
    allIssued = resolve;
  });
  // A 5 ms tick sends every beat due since the last one: ~5 per tick at 1,000 wallets.
  const timer = setInterval(() => {
    const due = Math.min(limit, Math.floor(((performance.now() - t0) * wallets.length) / 1000));
    while (issued < due) {
      // A disarm must reach every wallet: it waits for a slot where a beat is skipped.
      if (options.once && inFlight.size >= maxInFlight) break;
      const wallet = wallets[issued % wallets.length];
      issued += 1;
      if (inFlight.size >= maxInFlight) skipped += 1;
      else beat(wallet);
    }
    if (issued >= limit) {
      clearInterval(timer);
      allIssued();
    }
  }, 5);
  timer.unref();

  const done = async (): Promise<HeartbeatStats> => {
    if (options.once) await issuedAll;
    clearInterval(timer);
    const seconds = (performance.now() - t0) / 1000;
    await Promise.all(inFlight);
    for (const lane of idle.splice(0)) lane.close();
    return {
      wallets: wallets.length,
      timeout_s: timeoutS,
      seconds: round1(seconds),
      sent: issued - skipped,
      ok,
      failed,
      skipped,
      beats_per_s: seconds > 0 ? round1(ok / seconds) : null,
      p50_ms: round1(percentile(requestMs, 50)),
      p99_ms: round1(percentile(requestMs, 99)),
      error_samples: errors,
    };
  };
  const allArmed = async (timeoutMs: number): Promise<number | null> => {
    if (armedAt === undefined) {
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(resolve, timeoutMs);
        onArmed = () => {
          clearTimeout(timeout);
          resolve();
        };
      });
    }
    return armedAt === undefined ? null : round1((armedAt - t0) / 1000);
  };
  return { stop: done, allArmed };
}

/** Disarms every wallet's switch (one beat of timeout 0 each, over a second or more), so no switch fires later. */
export async function disarmAll(api: string, wallets: HeartbeatWallet[]): Promise<HeartbeatStats> {
  return startHeartbeats(api, wallets, 0, { once: true }).stop();
}
