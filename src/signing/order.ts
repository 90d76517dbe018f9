/**
 * The signed `Order` of the spec's Signing rules: 12 fields, in this order, EIP-712 domain
 * `ServiceExchange` / `1` / chainId / verifyingContract = the market's exchange.
 */
import type { Address, Hex } from 'viem';

export const SIDE = { BUY: 0, SELL: 1 } as const;
export type SideName = keyof typeof SIDE;
export const SIGNATURE_TYPE = { EOA: 0, EIP1271: 1 } as const;

export interface Order {
  salt: bigint;
  maker: Address;
  signer: Address;
  taker: Address;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  expiration: bigint;
  nonce: bigint;
  feeRateBps: bigint;
  side: number;
  signatureType: number;
}

/** An order with its signature: the shape the exchange contract's `Order` struct takes. */
export interface SignedOrder extends Order {
  signature: Hex;
}

export interface OrderDomain {
  chainId: number | bigint;
  verifyingContract: Address;
}

export const DOMAIN_NAME = 'ServiceExchange';
export const DOMAIN_VERSION = '1';

/** viem typed-data types, for wallets and for cross-checking the hot-path hasher. */
export const ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

export const ORDER_TYPE_STRING =
  'Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,' +
  'uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)';

/** The full EIP-712 payload, for `signTypedData` in a wallet or viem's `hashTypedData`. */
export function orderTypedData(order: Order, domain: OrderDomain) {
  return {
    domain: {
      name: DOMAIN_NAME,
      version: DOMAIN_VERSION,
      chainId: BigInt(domain.chainId),
      verifyingContract: domain.verifyingContract,
    },
    types: ORDER_TYPES,
    primaryType: 'Order' as const,
    message: {
      salt: order.salt,
      maker: order.maker,
      signer: order.signer,
      taker: order.taker,
      tokenId: order.tokenId,
      makerAmount: order.makerAmount,
      takerAmount: order.takerAmount,
      expiration: order.expiration,
      nonce: order.nonce,
      feeRateBps: order.feeRateBps,
      side: order.side,
      signatureType: order.signatureType,
    },
  };
}
