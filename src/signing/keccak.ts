/**
 * keccak-256 for the signature hot path, on the native Keccak state of the `keccak` package
 * (C, prebuilt for linux/darwin/win x64, loaded by node-gyp-build like secp256k1).
 *
 * Why not viem's keccak256: it is @noble/hashes, pure JS, and three hashes per verification
 * (struct hash, digest, public key) cost more than the native signature recovery itself.
 * The `keccak` package's public API wraps each hash in a stream object, so this drives its
 * native state directly and reuses one (JS is single-threaded and the calls are synchronous).
 * If the addon cannot load, it falls back to viem's keccak and `NATIVE_KECCAK` says so
 * (test/signing/native-binding.test.ts requires it to be native).
 */
import path from 'node:path';
import { keccak256 as viemKeccak256 } from 'viem';

interface KeccakState {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  squeeze(length: number): Buffer;
}

function loadNativeState(): KeccakState | null {
  try {
    // node-gyp-build ships no types: it returns the addon found under the package's prebuilds/.
    const nodeGypBuild = require('node-gyp-build') as (dir: string) => unknown;
    const State = nodeGypBuild(path.dirname(require.resolve('keccak/package.json'))) as new () => KeccakState;
    const state = new State();
    state.initialize(1088, 512);
    return state;
  } catch {
    return null;
  }
}

const state = loadNativeState();
export const NATIVE_KECCAK = state !== null;

export function keccak256Bytes(data: Uint8Array): Uint8Array {
  if (!state) return viemKeccak256(data, 'bytes');
  state.initialize(1088, 512); // keccak-256: rate 1088 bits, capacity 512, original 0x01 padding
  state.absorb(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  return state.squeeze(32);
}
