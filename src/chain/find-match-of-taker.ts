/**
 * The `matchOrders` transaction that settled an order as taker, if one was mined: the exchange
 * emits `OrdersMatched(takerOrderHash, ...)` once per call, and an order is the taker of at most one
 * call (it takes liquidity only in the step that places it). Settlement asks this before sending
 * again after a send whose outcome it never learned (a retried activity, a worker that died), so a
 * match that did go through is recorded as sent rather than sent twice and refused as "filled".
 */
import { getAbiItem, type Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { exchangeAbi } from './generated';

/** Blocks looked back: ~8 hours of BNB Smart Chain's 0.75 s blocks, far beyond any settlement retry. */
export const MATCH_LOOKBACK_BLOCKS = 40_000n;

export function findMatchOfTaker(ctx: ChainContext, takerOrderHash: Hex, lookbackBlocks = MATCH_LOOKBACK_BLOCKS): Promise<Hex | null> {
  return chainCall('findMatchOfTaker', async () => {
    const head = await ctx.publicClient.getBlockNumber({ cacheTime: 0 });
    const logs = await ctx.publicClient.getLogs({
      address: ctx.config.addresses.exchange,
      event: getAbiItem({ abi: exchangeAbi, name: 'OrdersMatched' }),
      args: { takerOrderHash },
      fromBlock: head > lookbackBlocks ? head - lookbackBlocks : 0n,
      toBlock: head,
    });
    return logs[0]?.transactionHash ?? null;
  });
}
