/**
 * The next block range of a chain scan that keeps a cursor (the chain watcher, the pool watchers):
 * on from the cursor, or, when the cursor's block was replaced (a reorg), again from `reorgDepth`
 * blocks below it.
 */
import type { BlockRef } from '../src/chain/watched-events';

/** The last block scanned (decimal number, hash): plain JSON for a workflow's state. */
export interface WatchCursor {
  block: string;
  hash: string;
}

export async function nextScanStart(
  chain: { blockRef(at: bigint): Promise<BlockRef | null> },
  cursor: WatchCursor,
  head: BlockRef,
  reorgDepth: number,
): Promise<{ from: bigint; reorged: boolean }> {
  const at = BigInt(cursor.block);
  const now = at <= head.number ? (at === head.number ? head : await chain.blockRef(at)) : null;
  if (now?.hash === cursor.hash) return { from: at + 1n, reorged: false };
  const depth = BigInt(Math.max(1, reorgDepth));
  const top = at < head.number ? at : head.number;
  const from = top + 1n - depth;
  return { from: from > 0n ? from : 0n, reorged: true };
}
