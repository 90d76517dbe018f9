/**
 * Sends one `matchOrders` transaction from the operator wallet and returns its hash without
 * waiting (the settlement activity records the hash, then calls `waitForReceipt`).
 * Gas estimation runs the match first, so a match the contract would refuse fails here with a
 * ChainRevertError carrying the reason, and costs no gas.
 */
import type { Hex } from 'viem';
import type { SignedOrder } from '../signing';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { exchangeAbi } from './generated';

export interface MatchSubmission {
  taker: SignedOrder;
  makers: SignedOrder[];
  /** The most the taker order gives, in its maker-amount units (unused part is refunded). */
  takerFillAmount: bigint;
  /** What each maker order gives, in its maker-amount units (see fill-amounts.ts). */
  makerFillAmounts: bigint[];
}

export function submitMatch(ctx: ChainContext, match: MatchSubmission): Promise<Hex> {
  if (match.makers.length === 0 || match.makers.length !== match.makerFillAmounts.length) {
    throw new RangeError('submitMatch needs one fill amount per maker order');
  }
  return chainCall('matchOrders', () =>
    ctx.walletClient.writeContract({
      address: ctx.config.addresses.exchange,
      abi: exchangeAbi,
      functionName: 'matchOrders',
      args: [match.taker, match.makers, match.takerFillAmount, match.makerFillAmounts],
    }),
  );
}
