/**
 * Checks a pool transaction the server built before the wallet sends it: the call is the pool's
 * `buy` or `sell` for the outcome and amount asked, its bound is the quote moved by the slippage
 * (as the server computes it, rounded down), and every approval goes to that pool. A wallet should
 * not sign calldata it has not read.
 */
import { decodeFunctionData, getAddress, parseAbi, type Hex } from 'viem';
import { parseUnitsStrict } from '../money';
import { PredexError } from './predex-error';
import type { TradeResponse } from './types';

const POOL_ABI = parseAbi([
  'function buy(uint256 investmentAmount, uint256 outcomeIndex, uint256 minOutcomeTokensToBuy)',
  'function sell(uint256 returnAmount, uint256 outcomeIndex, uint256 maxOutcomeTokensToSell)',
]);
const APPROVAL_ABI = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
]);

export interface PoolTxRequest {
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  /** BUY: collateral to spend; SELL: shares to sell (decimal strings). */
  amount: string;
  slippage_bps: number;
  chain_id: number;
}

/** The pool call's bound: the fewest shares a BUY accepts, or the most shares a SELL gives. */
export function poolBound(request: Pick<PoolTxRequest, 'side' | 'amount' | 'slippage_bps'>, quote: TradeResponse['quote'], decimals: number): bigint {
  if (request.side === 'BUY') return (parseUnitsStrict(quote.expected_shares ?? '0', decimals) * BigInt(10_000 - request.slippage_bps)) / 10_000n;
  return (parseUnitsStrict(request.amount, decimals) * BigInt(10_000 + request.slippage_bps)) / 10_000n;
}

function refuse(message: string, details: Record<string, unknown>): never {
  throw new PredexError({ code: 'BAD_RESPONSE', message: `the pool transaction does not match the trade asked: ${message}`, details });
}

/** Throws BAD_RESPONSE unless `response` is the AMM trade `request` asked for. */
export function checkPoolTx(request: PoolTxRequest, response: TradeResponse, decimals: number): void {
  const { tx, approvals = [] } = response;
  if (response.kind !== 'AMM' || !tx) refuse(`expected an AMM transaction, got kind ${response.kind}`, {});
  if (tx.chain_id !== request.chain_id || tx.value !== '0') refuse('wrong chain or a non-zero value', { tx });
  const call = decodeFunctionData({ abi: POOL_ABI, data: tx.data as Hex });
  const [amount, outcome, bound] = call.args;
  const want = request.side === 'BUY' ? 'buy' : 'sell';
  if (call.functionName !== want) refuse(`calls ${call.functionName}, not ${want}`, { tx });
  if (outcome !== BigInt(request.outcome)) refuse(`outcome ${outcome}, not ${request.outcome}`, { tx });
  const asked = request.side === 'BUY' ? parseUnitsStrict(request.amount, decimals) : parseUnitsStrict(response.quote.expected_collateral ?? '0', decimals);
  if (amount !== asked) refuse(`amount ${amount}, not ${asked}`, { tx });
  const expected = poolBound(request, response.quote, decimals);
  if (bound !== expected) refuse(`${request.side === 'BUY' ? 'minimum shares' : 'maximum shares'} ${bound}, not ${expected}`, { tx });
  for (const approval of approvals) {
    const decoded = decodeFunctionData({ abi: APPROVAL_ABI, data: approval.data as Hex });
    if (getAddress(decoded.args[0]) !== getAddress(tx.to)) refuse(`an approval names ${decoded.args[0]}, not the pool ${tx.to}`, { approval });
  }
}
