/**
 * POST /trade for a CLOB market: the quote turned into a MARKET order for the wallet to sign and
 * post to POST /v1/orders itself. The order's price is the worst within the slippage of the
 * deepest level the quote walked, so a book that moved a little still fills it.
 */
import { AppError } from '../errors';
import type { MarketRecord } from '../db/models';
import { formatCanonical } from '../money';
import { buildOrder } from '../signing/build-order';
import { orderTypedData } from '../signing/order';
import { ticksToPrice } from '../signing/price-ticks';
import { MAX_TICK, MIN_TICK } from '../engine/amounts';
import type { ClobQuoteResult } from './clob-quote-of-market';
import { decimalsOf } from './clob-quote-of-market';

/** The smallest order /v1/orders accepts: 0.1 share. */
const MIN_SHARES_NUMERATOR = 1n;
const MIN_SHARES_DENOMINATOR = 10n;

/** The worst own-outcome price the slippage allows from `ticks`: up for a BUY, down for a SELL. */
export function worstTicksWithin(side: 'BUY' | 'SELL', ticks: number, slippageBps: number): number {
  if (side === 'BUY') return Math.min(MAX_TICK, Math.floor((ticks * (10_000 + slippageBps)) / 10_000));
  return Math.max(MIN_TICK, Math.ceil((ticks * (10_000 - slippageBps)) / 10_000));
}

/** JSON form of viem typed data: bigints as decimal strings. */
function jsonTypedData(typed: ReturnType<typeof orderTypedData>): Record<string, unknown> {
  const message = Object.fromEntries(Object.entries(typed.message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));
  return { domain: { ...typed.domain, chainId: Number(typed.domain.chainId) }, types: typed.types, primaryType: typed.primaryType, message };
}

export function buildClobTrade(
  market: MarketRecord,
  quoted: ClobQuoteResult,
  input: { side: 'BUY' | 'SELL'; outcome: 0 | 1; wallet: `0x${string}`; slippageBps: number; nonce: bigint },
): Record<string, unknown> {
  const decimals = decimalsOf(market);
  const q = quoted.quote;
  if (q.worstTicks === null) throw new AppError('VALIDATION_ERROR', 'The book has nothing to take for this order', { quote: quoted.body });
  if (q.shares * MIN_SHARES_DENOMINATOR < MIN_SHARES_NUMERATOR * 10n ** BigInt(decimals)) {
    throw new AppError('VALIDATION_ERROR', 'amount trades less than the minimum order size of 0.1 shares', { quote: quoted.body });
  }
  const size = formatCanonical(q.shares, decimals);
  const built = buildOrder({
    market: { exchange: market.ctf_exchange_address as `0x${string}`, chainId: market.chain_id, tokens: market.tokens, decimals, feeRateBps: market.fee_rate_bps },
    maker: input.wallet,
    side: input.side,
    outcome: input.outcome,
    price: ticksToPrice(worstTicksWithin(input.side, q.worstTicks, input.slippageBps)),
    size,
    nonce: input.nonce,
  });
  const o = built.order;
  const order = {
    condition_id: market.condition_id,
    chain_id: market.chain_id,
    side: input.side,
    order_type: 'MARKET',
    outcome: input.outcome,
    price: built.price,
    size,
    salt: o.salt.toString(),
    signer: o.signer,
    taker: o.taker,
    token_id: o.tokenId.toString(),
    maker_amount: o.makerAmount.toString(),
    taker_amount: o.takerAmount.toString(),
    expiration: '0',
    nonce: o.nonce.toString(),
    fee_rate_bps: market.fee_rate_bps,
    signature_type: o.signatureType,
  };
  return { kind: 'CLOB', quote: quoted.body, typed_data: jsonTypedData(orderTypedData(o, built.domain)), order };
}
