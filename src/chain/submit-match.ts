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

/** What one order gives and gets in a match (the contract's `Fill`); see fill-amounts.ts. */
export interface OrderFill {
  /** What the order gives, in its maker-amount units: collateral wei (BUY) or token wei (SELL). */
  making: bigint;
  /** What it gets: token wei (BUY) or collateral wei (SELL), before fees. */
  taking: bigint;
}

export interface MatchSubmission {
  taker: SignedOrder;
  makers: SignedOrder[];
  /** The taker's whole side: exactly the sum of its sides of the maker legs. */
  takerFill: OrderFill;
  /** One per maker order (leg). Build all of it with `matchSubmissionFromTrades`. */
  makerFills: OrderFill[];
}

/** The submission as given, once it has a taker fill and one maker fill per maker order. */
export function checkedMatch(match: MatchSubmission): MatchSubmission {
  if (match.makers.length === 0 || match.makers.length !== match.makerFills?.length || !match.takerFill) {
    throw new RangeError('submitMatch needs a takerFill and one makerFill per maker order');
  }
  return match;
}

export function submitMatch(ctx: ChainContext, match: MatchSubmission): Promise<Hex> {
  checkedMatch(match);
  return chainCall('matchOrders', () =>
    ctx.operatorSender.send((nonce) =>
      ctx.walletClient.writeContract({
        address: ctx.config.addresses.exchange,
        abi: exchangeAbi,
        functionName: 'matchOrders',
        args: [match.taker, match.makers, match.takerFill, match.makerFills],
        nonce,
      }),
    ),
  );
}
