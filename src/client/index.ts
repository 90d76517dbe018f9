export { PredexClient, createPredexClient, type PredexClientOptions } from './predex-client';
export { PredexError, type LocalErrorCode } from './predex-error';
export type { Credentials } from './http-transport';
export type { OrderInput, OrderSigner } from './order-signing';
export { signOrderItem, unsignedOrder, priceTicksOf, sizeBaseOf, MIN_SIZE } from './order-signing';
export type { CancelTarget, PlacedOrder, Rejection } from './orders-api';
export type { BookLevel, BookMessage, BookView } from './local-book';
export type { Subscription, SubscribeOptions, BookOptions, UserEvent } from './subscriptions';
export type * from './types';
