/**
 * What can void an open order without the API hearing of it, in a block range: one `eth_getLogs`
 * over the deployment's three contracts, filtered by the seven event signatures, whatever the
 * number of open orders. The chain watcher (workflows/chain-watcher.workflow.ts) turns these into
 * checks of the wallets named.
 */
import { getAbiItem, type AbiEvent, type Address, type Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { collateralAbi, conditionalTokensAbi, exchangeAbi } from './generated';

export type WatchedEvent =
  /** The wallet's collateral or outcome tokens left it, or its approval to the exchange changed. */
  | { kind: 'funds'; wallet: Address }
  | { kind: 'cancel'; orderHash: Hex; maker: Address }
  | { kind: 'nonce'; maker: Address };

/** A block by number and hash: the watcher's cursor (a changed hash at the same number is a reorg). */
export interface BlockRef {
  number: bigint;
  hash: Hex;
}

const WATCHED: AbiEvent[] = [
  getAbiItem({ abi: collateralAbi, name: 'Transfer' }),
  getAbiItem({ abi: collateralAbi, name: 'Approval' }),
  getAbiItem({ abi: conditionalTokensAbi, name: 'TransferSingle' }),
  getAbiItem({ abi: conditionalTokensAbi, name: 'TransferBatch' }),
  getAbiItem({ abi: conditionalTokensAbi, name: 'ApprovalForAll' }),
  getAbiItem({ abi: exchangeAbi, name: 'OrderCancelled' }),
  getAbiItem({ abi: exchangeAbi, name: 'NonceIncremented' }),
] as AbiEvent[];

export function getWatchedEvents(ctx: ChainContext, fromBlock: bigint, toBlock: bigint): Promise<WatchedEvent[]> {
  const { collateral, conditionalTokens, exchange } = ctx.config.addresses;
  return chainCall('getWatchedEvents', async () => {
    const logs = await ctx.publicClient.getLogs({ address: [collateral, conditionalTokens, exchange], events: WATCHED, fromBlock, toBlock, strict: true });
    const events: WatchedEvent[] = [];
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    for (const log of logs) {
      const args = log.args as Record<string, unknown>;
      const from = log.address.toLowerCase();
      if (log.removed) continue;
      switch (log.eventName) {
        case 'Transfer':
          if (same(from, collateral)) events.push({ kind: 'funds', wallet: args.from as Address });
          break;
        case 'Approval':
          if (same(from, collateral) && same(args.spender as string, exchange)) events.push({ kind: 'funds', wallet: args.owner as Address });
          break;
        case 'TransferSingle':
        case 'TransferBatch':
          if (same(from, conditionalTokens)) events.push({ kind: 'funds', wallet: args.from as Address });
          break;
        case 'ApprovalForAll':
          if (same(from, conditionalTokens) && same(args.operator as string, exchange)) events.push({ kind: 'funds', wallet: args.owner as Address });
          break;
        case 'OrderCancelled':
          if (same(from, exchange)) events.push({ kind: 'cancel', orderHash: args.orderHash as Hex, maker: args.maker as Address });
          break;
        case 'NonceIncremented':
          if (same(from, exchange)) events.push({ kind: 'nonce', maker: args.maker as Address });
          break;
      }
    }
    return events;
  });
}

/** The block at `at` ('latest': the head), by number and hash; null when the chain has no such block (yet). */
export function getBlockRef(ctx: ChainContext, at: bigint | 'latest'): Promise<BlockRef | null> {
  return chainCall('getBlockRef', async () => {
    const block = await ctx.publicClient.getBlock(at === 'latest' ? { blockTag: 'latest' } : { blockNumber: at }).catch((error: unknown) => {
      if (error instanceof Error && error.name === 'BlockNotFoundError') return null;
      throw error;
    });
    if (!block || block.number === null || block.hash === null) return null;
    return { number: block.number, hash: block.hash };
  });
}
