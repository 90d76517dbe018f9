/**
 * Order signature verification per core: the service's hot path (src/signing: hand-rolled EIP-712
 * struct hash + native libsecp256k1 recovery) against viem's `recoverTypedDataAddress`, side by side
 * on the same signed orders, several interleaved rounds, medians reported.
 *
 *   npm run bench:sig            writes bench/results/sig.json
 *
 * Single-threaded on purpose: the result is "per core". Target: >= 10,000/s and >= 20x viem.
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

function timeNative(orders: { order: Order; signature: Hex }[]): number {
  const start = process.hrtime.bigint();
  for (const { order, signature } of orders) {
    if (!verifyOrderSignature(order, signature, DOMAIN).ok) throw new Error('native verification failed');
  }
  return orders.length / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function timeViem(orders: { order: Order; signature: Hex }[]): Promise<number> {
  const start = process.hrtime.bigint();
  for (const { order, signature } of orders) {
    const signer = await recoverTypedDataAddress({ ...orderTypedData(order, DOMAIN), signature });
    if (signer !== order.maker) throw new Error('viem verification failed');
  }
  return orders.length / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function main(): Promise<void> {
  const orders = makeOrders(NATIVE_BATCH);
  const viemOrders = orders.slice(0, VIEM_BATCH);
  timeNative(orders.slice(0, 500)); // warm-up both paths
  await timeViem(viemOrders.slice(0, 30));
  const native: number[] = [];
  const viem: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    native.push(timeNative(orders));
    viem.push(await timeViem(viemOrders));
  }
  const nativePerS = Math.round(median(native));
  const viemPerS = Math.round(median(viem));
  const ratio = Math.round((nativePerS / viemPerS) * 10) / 10;
  console.table({
    'native (src/signing)': { per_s_median: nativePerS, min: Math.round(Math.min(...native)), max: Math.round(Math.max(...native)), per_round: NATIVE_BATCH },
    'viem recoverTypedDataAddress': { per_s_median: viemPerS, min: Math.round(Math.min(...viem)), max: Math.round(Math.max(...viem)), per_round: VIEM_BATCH },
  });
  console.log(`ratio native/viem: ${ratio}x (targets: >= 10000/s/core, >= 20x)`);
  const result = {
    native_per_s: nativePerS,
    viem_per_s: viemPerS,
    ratio,
    rounds: ROUNDS,
    native_batch: NATIVE_BATCH,
    viem_batch: VIEM_BATCH,
    meets_targets: nativePerS >= 10_000 && ratio >= 20,
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
