/**
 * AMM quotes read pool state from a cache exact at the block it names. Under a steady flow of
 * quotes the head is polled behind them once it is half its TTL old, and the pool is read at the
 * new block before that block becomes the head: no quote waits for the chain meanwhile.
 */
import type { PublicClient } from 'viem';
import { createPoolStateReader } from '../../src/amm/pool-state';

const POOL = '0x00000000000000000000000000000000000000aa';

function fakeChain() {
  const heads: ((block: bigint) => void)[] = [];
  const reads: bigint[] = [];
  const client = {
    getBlockNumber: () => new Promise<bigint>((resolve) => heads.push(resolve)),
    readContract: async ({ blockNumber }: { blockNumber: bigint }) => {
      reads.push(blockNumber);
      return [blockNumber, 1n, 100n, 1n, 0n, false, false, false];
    },
  } as unknown as PublicClient;
  return { client, heads, reads };
}

describe('pool state: the head polled ahead of quotes', () => {
  test('when quotes come past half the TTL, then they are answered at once and the new block replaces the state once read', async () => {
    let clock = 0;
    const chain = fakeChain();
    const reader = createPoolStateReader(chain.client, { headTtlMs: 100, now: () => clock });
    const first = reader.read(POOL);
    chain.heads.shift()!(10n);
    expect((await first).blockNumber).toBe(10n);

    clock = 60; // past half the TTL: the next quote starts a poll and does not wait for it
    expect((await reader.read(POOL)).blockNumber).toBe(10n);
    expect(chain.heads).toHaveLength(1);
    expect((await reader.read(POOL)).blockNumber).toBe(10n);
    expect(chain.heads).toHaveLength(1); // one poll at a time

    chain.heads.shift()!(11n);
    await new Promise((r) => setImmediate(r));
    expect(chain.reads).toEqual([10n, 11n]);
    clock = 70;
    expect((await reader.read(POOL)).blockNumber).toBe(11n);
    expect(chain.heads).toHaveLength(0);
  });

  test('when a trade invalidates the pool during a poll ahead, then the poll keeps nothing and the next quote reads the head', async () => {
    let clock = 0;
    const chain = fakeChain();
    const reader = createPoolStateReader(chain.client, { headTtlMs: 100, now: () => clock });
    const first = reader.read(POOL);
    chain.heads.shift()!(10n);
    await first;
    clock = 60;
    await reader.read(POOL);
    reader.invalidate(POOL);
    chain.heads.shift()!(11n); // the poll ahead, begun before the trade was seen
    await new Promise((r) => setImmediate(r));
    const next = reader.read(POOL);
    chain.heads.shift()!(12n);
    expect((await next).blockNumber).toBe(12n);
  });
});
