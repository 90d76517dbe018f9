/**
 * Client helper: an unsigned Order for a market, with amounts from decisions section 1.
 * Takes the market as the API shows it (exchange, chain id, tokens, decimals, fee), so a client
 * never hard-codes the verifying contract or the decimals.
 */
import { randomBytes } from 'node:crypto';
import { zeroAddress, type Address } from 'viem';
import { parseUnitsStrict } from '../money';
import { orderAmounts } from './order-amounts';
import { SIDE, SIGNATURE_TYPE, type Order, type OrderDomain, type SideName } from './order';
import { priceToTicksRoundHalfUp, ticksToPrice } from './price-ticks';

export interface MarketForSigning {
  exchange: Address;
  chainId: number;
  tokens: readonly { outcome: number; token_id: string }[];
  decimals: number;
  feeRateBps: number;
}

export interface BuildOrderInput {
  market: MarketForSigning;
  maker: Address;
  side: SideName;
  outcome: 0 | 1;
  /** Decimal string; rounded half up to 0.01 (Signing rule 3). */
  price: string;
  /** Decimal string of shares, at most `decimals` fractional digits. */
  size: string;
  salt?: bigint;
  taker?: Address;
  expiration?: bigint;
  nonce?: bigint;
  signatureType?: 0 | 1;
}

export interface BuiltOrder {
  order: Order;
  domain: OrderDomain;
  /** The price actually signed, canonical ("0.5"). */
  price: string;
  priceTicks: number;
}

/** A random uint256 below 2^53 would do, but a full 256-bit salt costs nothing and never collides. */
function randomSalt(): bigint {
  return BigInt(`0x${randomBytes(32).toString('hex')}`);
}

export function buildOrder(input: BuildOrderInput): BuiltOrder {
  const token = input.market.tokens.find((t) => t.outcome === input.outcome);
  if (!token) throw new RangeError(`market has no token for outcome ${input.outcome}`);
  const priceTicks = priceToTicksRoundHalfUp(input.price);
  const sizeBase = parseUnitsStrict(input.size, input.market.decimals);
  const { makerAmount, takerAmount } = orderAmounts(input.side, sizeBase, priceTicks);
  const order: Order = {
    salt: input.salt ?? randomSalt(),
    maker: input.maker,
    signer: input.maker,
    taker: input.taker ?? zeroAddress,
    tokenId: BigInt(token.token_id),
    makerAmount,
    takerAmount,
    expiration: input.expiration ?? 0n,
    nonce: input.nonce ?? 0n,
    feeRateBps: BigInt(input.market.feeRateBps),
    side: SIDE[input.side],
    signatureType: input.signatureType ?? SIGNATURE_TYPE.EOA,
  };
  return {
    order,
    domain: { chainId: input.market.chainId, verifyingContract: input.market.exchange },
    price: ticksToPrice(priceTicks),
    priceTicks,
  };
}
