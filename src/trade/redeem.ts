/**
 * POST /trade/redeem: the conditional tokens' `redeemPositions` call for the wallet, and what it
 * will pay, computed as the contract does (per outcome, balance * numerator / denominator, floored).
 */
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { AppError } from '../errors';
import type { MarketRecord } from '../db/models';
import { conditionalTokensAbi } from '../chain/generated';
import { formatCanonical } from '../money';
import { decimalsOf } from './clob-quote-of-market';
import type { TradeChain } from './trade-chain';

export function tokenIdsOf(market: MarketRecord): [bigint, bigint] {
  const id = (outcome: 0 | 1) => BigInt(market.tokens.find((t) => t.outcome === outcome)?.token_id ?? '0');
  return [id(0), id(1)];
}

export async function redeemOf(chain: TradeChain, market: MarketRecord, wallet: Address): Promise<{ tx: Record<string, unknown>; payout: string }> {
  if (market.status !== 'RESOLVED') throw new AppError('MARKET_NOT_RESOLVED', `Market is ${market.status}`, { status: market.status });
  const ctf = market.conditional_tokens_address as Address;
  const payouts = await chain.payoutsOf(ctf, market.condition_id as Hex);
  if (payouts.denominator === 0n) throw new AppError('MARKET_NOT_RESOLVED', 'The resolution is not reported on chain yet');
  const balances = await chain.balancesOf(ctf, wallet, tokenIdsOf(market));
  const payout = balances.reduce((sum, held, i) => sum + (held * payouts.numerators[i]) / payouts.denominator, 0n);
  const data = encodeFunctionData({ abi: conditionalTokensAbi, functionName: 'redeemPositions', args: [market.collateral_token as Address, market.condition_id as Hex] });
  return { tx: { chain_id: market.chain_id, to: ctf, data, value: '0' }, payout: formatCanonical(payout, decimalsOf(market)) };
}
