/**
 * Turns a trader's order (market, side, outcome, price, size) into a signed PlaceOrderItem. The
 * amount math and the typed data are the server's own pure modules (src/signing, src/money), so
 * the client signs exactly what the server recomputes; signing is viem's `signTypedData`.
 */
import { hashTypedData, zeroAddress, type Address, type Hex, type TypedDataDefinition } from 'viem';
import { InvalidDecimalError, parseUnitsStrict } from '../money/parse-units-strict';
import { orderAmounts } from '../signing/order-amounts';
import { orderTypedData, SIDE, SIGNATURE_TYPE, type Order, type OrderDomain } from '../signing/order';
import { priceToTicksStrict, ticksToPrice } from '../signing/price-ticks';
import { PredexError } from './predex-error';
import type { Market, OrderType, Outcome, PlaceOrderItem, Side } from './types';

/** Anything that signs EIP-712 typed data for one address: a viem LocalAccount, or a wallet adapter. */
export interface OrderSigner {
  address: Address;
  signTypedData(typedData: TypedDataDefinition): Promise<Hex>;
}

export interface OrderInput {
  /** condition_id of the market. */
  market: string;
  side: Side;
  /** 1 = YES, 0 = NO (the names are accepted too). */
  outcome: Outcome | 'YES' | 'NO';
  /** Decimal price of the outcome token, a multiple of 0.01 in [0.01, 1]; for MARKET and FOK the worst acceptable. */
  price: string;
  /** Decimal number of shares, at least 0.1. */
  size: string;
  type?: OrderType;
  post_only?: boolean;
  client_order_id?: string;
  /** Unix seconds (number, bigint or decimal string) or a Date; required for GTD. */
  expiration?: number | bigint | string | Date;
  /** Restricts the order to one counterparty. */
  taker?: Address;
}

export const MIN_SIZE = '0.1';

export function outcomeOf(outcome: OrderInput['outcome']): Outcome {
  if (outcome === 'YES' || outcome === 1) return 1;
  if (outcome === 'NO' || outcome === 0) return 0;
  throw new PredexError({ code: 'CLIENT_INPUT', message: `outcome must be 1 (YES) or 0 (NO), got ${String(outcome)}` });
}

function expirationOf(value: OrderInput['expiration']): bigint {
  if (value === undefined) return 0n;
  if (value instanceof Date) return BigInt(Math.floor(value.getTime() / 1000));
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new PredexError({ code: 'CLIENT_INPUT', message: `expiration must be whole unix seconds, got ${value}` });
  return BigInt(value);
}

/** Price in ticks; a sub-tick or out-of-range price is refused here with the server's own code. */
export function priceTicksOf(price: string): number {
  try {
    return priceToTicksStrict(price);
  } catch {
    throw new PredexError({ code: 'PRICE_OUT_OF_RANGE', message: `price ${price} must be a multiple of 0.01 in [0.01, 1]` });
  }
}

/** Size in base units (10^decimals per share); below 0.1 share or too many decimals is refused here. */
export function sizeBaseOf(size: string, decimals: number): bigint {
  let base: bigint;
  try {
    base = parseUnitsStrict(size, decimals);
  } catch (error) {
    const why = error instanceof InvalidDecimalError ? error.message : String(error);
    throw new PredexError({ code: 'CLIENT_INPUT', message: `size ${size} is not a decimal number of shares: ${why}` });
  }
  // size * 10 < 1 share, in base units: works for any D, 0 included.
  if (base * 10n < 10n ** BigInt(decimals)) throw new PredexError({ code: 'SIZE_TOO_SMALL', message: `size ${size} is below the minimum of ${MIN_SIZE}` });
  return base;
}

/** The unsigned order and its domain, as the server will recompute them for this market. */
export function unsignedOrder(market: Market, input: OrderInput, maker: Address, nonce: bigint, salt: bigint): { order: Order; domain: OrderDomain; outcome: Outcome; priceTicks: number } {
  const outcome = outcomeOf(input.outcome);
  const token = market.tokens.find((t) => t.outcome === outcome);
  if (!token) throw new PredexError({ code: 'CLIENT_INPUT', message: `market ${market.condition_id} has no token for outcome ${outcome}` });
  if (input.side !== 'BUY' && input.side !== 'SELL') throw new PredexError({ code: 'CLIENT_INPUT', message: `side must be BUY or SELL, got ${String(input.side)}` });
  const priceTicks = priceTicksOf(input.price);
  const { makerAmount, takerAmount } = orderAmounts(input.side, sizeBaseOf(input.size, token.decimals), priceTicks);
  const order: Order = {
    salt,
    maker,
    signer: maker,
    taker: input.taker ?? zeroAddress,
    tokenId: BigInt(token.token_id),
    makerAmount,
    takerAmount,
    expiration: expirationOf(input.expiration),
    nonce,
    feeRateBps: BigInt(market.fee_rate_bps),
    side: SIDE[input.side],
    signatureType: SIGNATURE_TYPE.EOA,
  };
  return { order, domain: { chainId: market.chain_id, verifyingContract: market.ctf_exchange_address as Address }, outcome, priceTicks };
}

/** A random uint256 salt from the platform's CSPRNG (Node and browsers alike). */
export function randomSalt(): bigint {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`);
}

export interface SignedItem {
  item: PlaceOrderItem;
  orderHash: Hex;
}

/** Signs the order and lays it out as POST /v1/orders takes it. */
export async function signOrderItem(market: Market, input: OrderInput, signer: OrderSigner, nonce: bigint, salt = randomSalt()): Promise<SignedItem> {
  const { order, domain, outcome, priceTicks } = unsignedOrder(market, input, signer.address, nonce, salt);
  const typedData = orderTypedData(order, domain);
  const signature = await signer.signTypedData(typedData as unknown as TypedDataDefinition);
  const item: PlaceOrderItem = {
    condition_id: market.condition_id,
    chain_id: market.chain_id,
    side: input.side,
    order_type: input.type ?? 'LIMIT',
    outcome,
    price: ticksToPrice(priceTicks),
    size: input.size,
    salt: order.salt.toString(),
    signer: signer.address,
    taker: order.taker,
    token_id: order.tokenId.toString(),
    maker_amount: order.makerAmount.toString(),
    taker_amount: order.takerAmount.toString(),
    expiration: order.expiration.toString(),
    nonce: order.nonce.toString(),
    fee_rate_bps: market.fee_rate_bps,
    signature_type: 0,
    signature,
    ...(input.post_only !== undefined ? { post_only: input.post_only } : {}),
    ...(input.client_order_id !== undefined ? { client_order_id: input.client_order_id } : {}),
  };
  return { item, orderHash: hashTypedData(typedData) };
}
