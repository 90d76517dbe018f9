/**
 * Pool state for quotes, cached per pool and exact at the block it names: each entry is one
 * `poolState()` eth_call pinned to a block number, and a newer head (polled at most once per
 * `headTtlMs`, shared by every pool) or a pool event (`invalidate`) replaces it. So a burst of
 * quotes costs at most one eth_call per pool per block, and every quote can say which block it is
 * exact at. Concurrent misses share one read.
 *
 * Under a steady flow of quotes the head is polled ahead: once it is half its TTL old, one poll
 * runs behind the quotes and, when the head moved, reads the pools already cached at the new
 * block before it becomes the head. Quotes then seldom wait for the chain, and none is answered
 * from a head older than the TTL.
 */
import type { Address, PublicClient } from 'viem';
import { chainCall } from '../chain/chain-errors';
import { ammPoolAbi } from '../chain/generated';
import type { PoolBalances } from './pool-math';

export interface PoolState {
  pool: Address;
  balances: PoolBalances;
  feeBps: bigint;
  totalShares: bigint;
  collectedFees: bigint;
  paused: boolean;
  closed: boolean;
  resolved: boolean;
  blockNumber: bigint;
}

export interface PoolStateReader {
  read(pool: Address): Promise<PoolState>;
  /** Drops a pool's entry (a trade was seen) and forces the next read to ask for the head. */
  invalidate(pool?: Address): void;
}

export async function readPoolState(client: PublicClient, pool: Address, blockNumber?: bigint): Promise<PoolState> {
  const [b0, b1, fee, shares, fees, paused, closed, resolved] = await chainCall('poolState', () =>
    client.readContract({ address: pool, abi: ammPoolAbi, functionName: 'poolState', blockNumber }),
  );
  const at = blockNumber ?? await chainCall('getBlockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
  return { pool, balances: [b0, b1], feeBps: fee, totalShares: shares, collectedFees: fees, paused, closed, resolved, blockNumber: at };
}

export function createPoolStateReader(client: PublicClient, options: { headTtlMs?: number; now?: () => number } = {}): PoolStateReader {
  const ttl = options.headTtlMs ?? 250;
  const now = options.now ?? Date.now;
  let head: { block: bigint; at: number } | undefined;
  let headInFlight: Promise<bigint> | undefined;
  const entries = new Map<string, Promise<PoolState>>();
  let polling = false;
  /** Bumped by `invalidate`: a poll ahead that began before a trade was seen keeps nothing. */
  let generation = 0;

  const pollAhead = (): void => {
    if (polling) return;
    polling = true;
    const startedAt = now();
    const startedIn = generation;
    const current = () => generation === startedIn;
    void chainCall('getBlockNumber', () => client.getBlockNumber({ cacheTime: 0 }))
      .then(async (block) => {
        if (head && block <= head.block) {
          if (current() && block === head.block && startedAt > head.at) head.at = startedAt;
          return;
        }
        // Entries are replaced once read, so quotes keep the previous state meanwhile.
        await Promise.all([...entries.keys()].map(async (key) => {
          const state = await readPoolState(client, key as Address, block);
          if (current()) entries.set(key, Promise.resolve(state));
        }));
        if (current() && (!head || block >= head.block)) head = { block, at: startedAt };
      })
      .catch(() => undefined)
      .finally(() => { polling = false; });
  };

  const currentHead = (): Promise<bigint> => {
    if (head && now() - head.at < ttl) return Promise.resolve(head.block);
    headInFlight ??= chainCall('getBlockNumber', () => client.getBlockNumber({ cacheTime: 0 }))
      .then((block) => {
        // A lagging answer never moves the head back.
        if (!head || block >= head.block) head = { block, at: now() };
        else head.at = now();
        return head.block;
      })
      .finally(() => { headInFlight = undefined; });
    return headInFlight;
  };

  return {
    async read(pool) {
      if (head && now() - head.at >= ttl / 2) pollAhead();
      const block = await currentHead();
      const key = pool.toLowerCase();
      const cached = entries.get(key);
      if (cached) {
        const state = await cached.catch(() => undefined);
        if (state && state.blockNumber >= block) return state;
        if (entries.get(key) !== cached) return this.read(pool);
      }
      const fresh = readPoolState(client, pool, block);
      entries.set(key, fresh);
      fresh.catch(() => { if (entries.get(key) === fresh) entries.delete(key); });
      return fresh;
    },
    invalidate(pool) {
      generation += 1;
      head = undefined;
      if (pool) entries.delete(pool.toLowerCase());
      else entries.clear();
    },
  };
}
