import { zeroAddress, type Address, type Hex } from 'viem';
import type { MarketRecord } from '../db/models/market.model';
import { reserveOf } from '../engine';
import { formatCanonical, InvalidDecimalError, parseUnitsStrict } from '../money';
import { orderAmounts, SIDE, type SignedOrder } from '../signing';
import type { PlaceOrderItem } from './order.schema';
import { reject, type OrderRejection } from './order-rejection';

const UINT256_MAX = (1n << 256n) - 1n;
/** Minimum size: 0.1 share (spec limits). */
const MIN_SIZE_TENTHS = 1n;
/**
 * Expirations further ahead than 10 years (of 365.25 days) are refused inline: the matcher keeps
 * expirations as safe integers of seconds and schedules timers in ms, so a larger one was
 * accepted, then refused by the engine at placement (MATCH_FAILED).
 */
export const MAX_EXPIRATION_AHEAD_S = 315_576_000n;

/** An order that passed every check that needs no I/O: ready for signature, nonce and balance. */
export interface CheckedOrder {
  item: PlaceOrderItem;
  market: MarketRecord;
  order: SignedOrder;
  domain: { chainId: number; verifyingContract: Address };
  priceTicks: number;
  price: string;
  decimals: number;
  sizeUnits: bigint;
  size: string;
  /**
   * Collateral (BUY) or outcome tokens (SELL) the order commits: its signed maker amount, plus for
   * a BUY the most fee it can pay (the exchange pulls a BUY's fee in collateral on top of the price).
   */
  needUnits: bigint;
}

function parsePrice(price: string): { ticks: number } | OrderRejection {
  let ticks: bigint;
  try {
    ticks = parseUnitsStrict(price, 2);
  } catch (error) {
    if (error instanceof InvalidDecimalError) {
      return reject('PRICE_OUT_OF_RANGE', `Price ${price} has sub-tick precision: prices are multiples of 0.01 in [0.01, 1.00]`);
    }
    throw error;
  }
  if (ticks < 1n || ticks > 100n) return reject('PRICE_OUT_OF_RANGE', `Price ${price} is outside [0.01, 1.00]`);
  return { ticks: Number(ticks) };
}

/** Market rules (decisions sections 1 and 3) checked without I/O, in a fixed order. */
export function checkOrder(item: PlaceOrderItem, market: MarketRecord | undefined, nowSeconds: number): CheckedOrder | OrderRejection {
  if (!market) return reject('NOT_FOUND', `Market ${item.condition_id} on chain ${item.chain_id} not found`);
  if (market.kind !== 'CLOB') return reject('MARKET_NOT_CLOB', 'Market is not an order-book market');
  if (market.status !== 'OPEN') return reject('MARKET_NOT_ACTIVE', `Market is ${market.status}`, { status: market.status });

  const price = parsePrice(item.price);
  if ('error' in price) return price;

  const token = market.tokens.find((t) => t.token_id === item.token_id);
  if (!token) return reject('INVALID_ORDER', `token_id ${item.token_id} is not a token of this market`);
  if (token.outcome !== item.outcome) return reject('INVALID_ORDER', `token_id ${item.token_id} is outcome ${token.outcome}, not ${item.outcome}`);
  const decimals = token.decimals;

  const tenths = parseTenthsFloor(item.size);
  if (tenths < MIN_SIZE_TENTHS) return reject('SIZE_TOO_SMALL', `Size ${item.size} is below the minimum of 0.1`);
  let sizeUnits: bigint;
  try {
    sizeUnits = parseUnitsStrict(item.size, decimals);
  } catch {
    return reject('INVALID_ORDER', `Size ${item.size} has more than ${decimals} fractional digits`);
  }

  if (item.fee_rate_bps !== market.fee_rate_bps) {
    return reject('INVALID_ORDER', `fee_rate_bps ${item.fee_rate_bps} differs from the market's ${market.fee_rate_bps}`);
  }
  const expiration = BigInt(item.expiration);
  if (item.order_type === 'GTD' && expiration === 0n) return reject('INVALID_ORDER', 'GTD orders need a non-zero expiration');
  if (item.post_only && item.order_type !== 'LIMIT' && item.order_type !== 'GTD') {
    return reject('INVALID_ORDER', `post_only applies to LIMIT and GTD orders, not ${item.order_type}`);
  }
  if (expiration !== 0n && expiration <= BigInt(nowSeconds)) {
    return reject('ORDER_EXPIRED', `Expiration ${item.expiration} is not in the future`, { expiration: item.expiration, now: String(nowSeconds) });
  }
  if (expiration > BigInt(nowSeconds) + MAX_EXPIRATION_AHEAD_S) {
    return reject('INVALID_ORDER', `Expiration ${item.expiration} is more than 10 years ahead`, { expiration: item.expiration, max: String(BigInt(nowSeconds) + MAX_EXPIRATION_AHEAD_S) });
  }
  if (item.taker.toLowerCase() === item.signer.toLowerCase()) return reject('INVALID_ORDER', 'taker restricts the order to its own maker');

  const expected = orderAmounts(item.side, sizeUnits, price.ticks);
  if (expected.makerAmount.toString() !== item.maker_amount || expected.takerAmount.toString() !== item.taker_amount) {
    return reject('INVALID_ORDER', 'Drifted signed amounts', {
      expected_maker_amount: expected.makerAmount.toString(),
      expected_taker_amount: expected.takerAmount.toString(),
    });
  }
  for (const field of ['salt', 'token_id', 'nonce', 'expiration'] as const) {
    if (BigInt(item[field]) > UINT256_MAX) return reject('INVALID_ORDER', `${field} exceeds uint256`);
  }

  const signer = item.signer as Address;
  const order: SignedOrder = {
    salt: BigInt(item.salt),
    maker: signer,
    signer,
    taker: (item.taker.toLowerCase() === zeroAddress ? zeroAddress : item.taker) as Address,
    tokenId: BigInt(item.token_id),
    makerAmount: expected.makerAmount,
    takerAmount: expected.takerAmount,
    expiration,
    nonce: BigInt(item.nonce),
    feeRateBps: BigInt(item.fee_rate_bps),
    side: SIDE[item.side],
    signatureType: item.signature_type,
    signature: item.signature as Hex,
  };
  return {
    item,
    market,
    order,
    domain: { chainId: market.chain_id, verifyingContract: market.ctf_exchange_address as Address },
    priceTicks: price.ticks,
    price: formatCanonical(BigInt(price.ticks), 2),
    decimals,
    sizeUnits,
    size: formatCanonical(sizeUnits, decimals),
    needUnits: reserveOf(item.side, price.ticks, sizeUnits, item.fee_rate_bps),
  };
}

/** floor(size * 10): enough to compare with the 0.1 minimum whatever the fractional digits. */
function parseTenthsFloor(size: string): bigint {
  const [whole, fraction = ''] = size.split('.');
  return BigInt(whole) * 10n + BigInt(fraction.slice(0, 1) || '0');
}
