/**
 * What the pool watcher reads from the chain: the pools' `Buy` and `Sell` logs over a block range
 * (one `eth_getLogs`, whatever the number of pools), block refs for its cursor, and the block a
 * pool was deployed at, where a watcher without a cursor begins.
 */
import { getAbiItem, type AbiEvent, type Address } from 'viem';
import { chainCall } from '../chain/chain-errors';
import type { ChainContext } from '../chain/chain-context';
import { ammPoolAbi } from '../chain/generated';
import { getBlockRef, type BlockRef } from '../chain/watched-events';
import { decodePoolTrades, type PoolTrade } from './pool-events';

export interface PoolWatchChain {
  readonly chainId: number;
  /** Blocks a log needs under the head before it is recorded (CHAIN_CONFIRMATIONS, at least 1: mined). */
  readonly confirmations: number;
  blockRef(at: bigint | 'latest'): Promise<BlockRef | null>;
  trades(pools: readonly Address[], fromBlock: bigint, toBlock: bigint): Promise<PoolTrade[]>;
  /** The first block holding the pool's code; null when it has none at the head. */
  deployedAt(pool: Address, head: bigint): Promise<bigint | null>;
}

const TRADE_EVENTS = [getAbiItem({ abi: ammPoolAbi, name: 'Buy' }), getAbiItem({ abi: ammPoolAbi, name: 'Sell' })] as AbiEvent[];

export function poolWatchChainOf(ctx: ChainContext, confirmations: number): PoolWatchChain {
  const client = ctx.publicClient;
  const hasCode = async (pool: Address, blockNumber: bigint) => {
    const code = await chainCall('getCode', () => client.getCode({ address: pool, blockNumber }));
    return code !== undefined && code !== '0x';
  };
  return {
    chainId: ctx.chain.id,
    confirmations: Math.max(1, confirmations),
    blockRef: (at) => getBlockRef(ctx, at),
    async trades(pools, fromBlock, toBlock) {
      const logs = await chainCall('getPoolLogs', () => client.getLogs({ address: [...pools], events: TRADE_EVENTS, fromBlock, toBlock }));
      return decodePoolTrades(logs.filter((log) => !log.removed), pools);
    },
    // Binary search over `eth_getCode`: ~log2(head) reads, once per watcher.
    async deployedAt(pool, head) {
      if (!(await hasCode(pool, head))) return null;
      let low = 0n;
      let high = head;
      while (low < high) {
        const mid = (low + high) / 2n;
        if (await hasCode(pool, mid)) high = mid;
        else low = mid + 1n;
      }
      return low;
    },
  };
}
