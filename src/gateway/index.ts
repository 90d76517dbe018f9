export { attachGateway } from './gateway';
export type { Gateway, GatewayDeps } from './gateway';
export { createRealtimePublisher } from './realtime-publisher';
export type { Fanout, RealtimePublisherDeps } from './realtime-publisher';
export { DEFAULT_GATEWAY_LIMITS, GATEWAY_SOCKET_OPTIONS } from './limits';
export type { GatewayLimits } from './limits';
export type { WsTokenConsumer } from './ws-auth';
export type { MarketDirectory, MarketRef } from './market-directory';
export type { BookSnapshotReader, BookSnapshot, BookLevel } from './book-snapshot';
