/**
 * Order signature verification per core: the service's hot path (src/signing: hand-rolled EIP-712
 * struct hash + native libsecp256k1 recovery) against viem's `recoverTypedDataAddress`, side by side
 * on the same signed orders, several interleaved rounds, medians reported.
 *
 *   npm run bench:sig            writes bench/results/sig.json
 *
 * Single-threaded on purpose: the result is "per core". Target: >= 10,000/s and >= 20x viem.
 * Rates are per CPU-second of this process (process.cpuUsage), so other work on a shared machine
 * does not count against us; wall-clock rates are recorded beside them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recoverTypedDataAddress, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { orderTypedData, signOrder, verifyOrderSignature, type Order } from '../src/signing';

const ROUNDS = 7;
const NATIVE_BATCH = 5_000;
const VIEM_BATCH = 300;
const DOMAIN = { chainId: 56, verifyingContract: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0' } as const;

/** Deterministic orders from a small LCG, so every run verifies the same work. */
function makeOrders(count: number): { order: Order; signature: Hex }[] {
  let seed = 0x1234567n;
  const next = (bits: bigint) => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
    return seed & ((1n << bits) - 1n);
  };
  const keys: Hex[] = Array.from({ length: 32 }, (_, i) => `0x${(BigInt(i + 1) * 0x1000193n + next(60n)).toString(16).padStart(64, '0')}` as Hex);
  return Array.from({ length: count }, (_, i) => {
    const key = keys[i % keys.length];
    const maker = privateKeyToAddress(key);
    const size = (next(20n) + 1n) * 10n ** 16n;
    const ticks = next(6n) % 99n + 1n;
    const side = Number(next(1n));
    const order: Order = {
      salt: next(64n), maker, signer: maker, taker: '0x0000000000000000000000000000000000000000',
      tokenId: (next(64n) << 192n) | next(64n), makerAmount: side === 0 ? (size * ticks) / 100n : size,
      takerAmount: side === 0 ? size : (size * ticks) / 100n, expiration: 0n, nonce: 0n, feeRateBps: 100n, side, signatureType: 0,
    };
    return { order, signature: signOrder({ order, domain: DOMAIN }, key).signature };
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface Rate {
  cpu: number;
  wall: number;
}

async function measure(count: number, run: () => Promise<void> | void): Promise<Rate> {
  const cpu = process.cpuUsage();
  const wall = process.hrtime.bigint();
  await run();
  const used = process.cpuUsage(cpu);
  return {
    cpu: count / ((used.user + used.system) / 1e6),
    wall: count / (Number(process.hrtime.bigint() - wall) / 1e9),
  };
}

function timeNative(orders: { order: Order; signature: Hex }[]): Promise<Rate> {
  return measure(orders.length, () => {
    for (const { order, signature } of orders) {
      if (!verifyOrderSignature(order, signature, DOMAIN).ok) throw new Error('native verification failed');
    }
  });
}

function timeViem(orders: { order: Order; signature: Hex }[]): Promise<Rate> {
  return measure(orders.length, async () => {
    for (const { order, signature } of orders) {
      const signer = await recoverTypedDataAddress({ ...orderTypedData(order, DOMAIN), signature });
      if (signer !== order.maker) throw new Error('viem verification failed');
    }
  });
}

async function main(): Promise<void> {
  const orders = makeOrders(NATIVE_BATCH);
  const viemOrders = orders.slice(0, VIEM_BATCH);
  await timeNative(orders.slice(0, 500)); // warm-up both paths
  await timeViem(viemOrders.slice(0, 30));
  const native: Rate[] = [];
  const viem: Rate[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    native.push(await timeNative(orders));
    viem.push(await timeViem(viemOrders));
  }
  const med = (rates: Rate[], key: keyof Rate) => Math.round(median(rates.map((r) => r[key])));
  const nativePerS = med(native, 'cpu');
  const viemPerS = med(viem, 'cpu');
  const ratio = Math.round((nativePerS / viemPerS) * 10) / 10;
  console.table({
    'native (src/signing)': { per_cpu_s: nativePerS, per_wall_s: med(native, 'wall'), per_round: NATIVE_BATCH },
    'viem recoverTypedDataAddress': { per_cpu_s: viemPerS, per_wall_s: med(viem, 'wall'), per_round: VIEM_BATCH },
  });
  console.log(`medians of ${ROUNDS} rounds; ratio native/viem: ${ratio}x (targets: >= 10000/s/core, >= 20x); load average ${os.loadavg()[0].toFixed(1)}`);
  const result = {
    native_per_s: nativePerS,
    viem_per_s: viemPerS,
    ratio,
    basis: 'verifications per CPU-second of one thread (process.cpuUsage), median of rounds',
    native_wall_per_s: med(native, 'wall'),
    viem_wall_per_s: med(viem, 'wall'),
    rounds: ROUNDS,
    native_batch: NATIVE_BATCH,
    viem_batch: VIEM_BATCH,
    meets_targets: nativePerS >= 10_000 && ratio >= 20,
    load_average: Math.round(os.loadavg()[0] * 10) / 10,
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    measured_at: new Date().toISOString(),
  };
  const out = path.join(__dirname, 'results', 'sig.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
