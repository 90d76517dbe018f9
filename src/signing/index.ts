export * from './order';
export { hashOrder, orderDigest, orderStructHash, domainSeparator } from './hash-order';
export { recoverSigner, parseSignature } from './recover-signer';
export { verifyOrderSignature, type SignatureCheck } from './verify-order-signature';
export { orderAmounts, MIN_TICK, MAX_TICK } from './order-amounts';
export { priceToTicksStrict, priceToTicksRoundHalfUp, ticksToPrice } from './price-ticks';
export { buildOrder, type BuildOrderInput, type BuiltOrder, type MarketForSigning } from './build-order';
export { signOrder, signDigest, type SignedOrderResult } from './sign-order';
