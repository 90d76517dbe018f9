import type { Address, Hex } from 'viem';
import { SIDE, type SignedOrder } from '../signing';
import type { OrderRecord } from './order-record';

type SignedFields = Pick<
  OrderRecord,
  'salt' | 'maker' | 'signer' | 'taker' | 'token_id' | 'maker_amount' | 'taker_amount' | 'expiration' | 'nonce' | 'fee_rate_bps' | 'side' | 'signature_type' | 'signature'
>;

/** The signed order exactly as its maker signed it, from its stored record (decimal strings -> bigint). */
export function signedOrderOfRecord(record: SignedFields): SignedOrder {
  return {
    salt: BigInt(record.salt),
    maker: record.maker as Address,
    signer: record.signer as Address,
    taker: record.taker as Address,
    tokenId: BigInt(record.token_id),
    makerAmount: BigInt(record.maker_amount),
    takerAmount: BigInt(record.taker_amount),
    expiration: BigInt(record.expiration),
    nonce: BigInt(record.nonce),
    feeRateBps: BigInt(record.fee_rate_bps),
    side: SIDE[record.side],
    signatureType: record.signature_type,
    signature: record.signature as Hex,
  };
}
