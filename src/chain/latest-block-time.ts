import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';

/**
 * The latest block's timestamp (unix seconds): the chain's own clock, which the exchange compares
 * with an order's expiration (`block.timestamp < expiration`). Settlement asks it after a match was
 * refused as "order expired", to learn which of the match's orders the chain holds expired.
 */
export async function latestBlockTime(ctx: ChainContext): Promise<number> {
  const block = await chainCall('getBlock', () => ctx.publicClient.getBlock({ blockTag: 'latest' }));
  return Number(block.timestamp);
}
