/**
 * On-chain cancels and nonce bumps in a block range, oldest first, for a poller that turns them
 * into CANCELLED orders (decisions section 4). Polling by range is deterministic and resumable:
 * the caller stores the last block it processed.
 */
import { parseEventLogs, type Address, type Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { exchangeAbi } from './generated';

interface EventPosition {
  blockNumber: bigint;
  transactionHash: Hex;
  logIndex: number;
}

export type CancelOrNonceEvent =
  | ({ type: 'OrderCancelled'; orderHash: Hex; maker: Address } & EventPosition)
  | ({ type: 'NonceIncremented'; maker: Address; newNonce: bigint } & EventPosition);

export function getCancelAndNonceEvents(ctx: ChainContext, fromBlock: bigint, toBlock: bigint): Promise<CancelOrNonceEvent[]> {
  return chainCall('getCancelAndNonceEvents', async () => {
    const logs = await ctx.publicClient.getLogs({ address: ctx.config.addresses.exchange, fromBlock, toBlock });
    const parsed = parseEventLogs({ abi: exchangeAbi, logs, eventName: ['OrderCancelled', 'NonceIncremented'] });
    return parsed.map((log): CancelOrNonceEvent => {
      const position = { blockNumber: log.blockNumber, transactionHash: log.transactionHash, logIndex: log.logIndex };
      if (log.eventName === 'OrderCancelled') return { type: 'OrderCancelled', orderHash: log.args.orderHash, maker: log.args.maker, ...position };
      return { type: 'NonceIncremented', maker: log.args.maker, newNonce: log.args.newNonce, ...position };
    }).sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
  });
}

export function getBlockNumber(ctx: ChainContext): Promise<bigint> {
  return chainCall('getBlockNumber', () => ctx.publicClient.getBlockNumber({ cacheTime: 0 }));
}
