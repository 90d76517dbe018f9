/**
 * The client's REST shapes, named. Every one is taken from `generated/openapi.ts`, which
 * `scripts/generate-client-types.ts` writes from the server's own OpenAPI document.
 */
import type { components, paths } from './generated/openapi';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Ok<O> = O extends { responses: infer R }
  ? (R extends { 200: infer A } ? Json<A> : R extends { 201: infer C } ? Json<C> : R extends { 202: infer D } ? Json<D> : never)
  : never;
type Body<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
export type ErrorCode = ErrorEnvelope['code'];
export type Market = components['schemas']['Market'];
export type MarketToken = Market['tokens'][number];
export type OrderRecord = components['schemas']['OrderRecord'];
export type ApiKeyMetadata = components['schemas']['ApiKeyMetadata'];

export type MarketPage = Ok<paths['/markets']['get']>;
export type ListMarketsQuery = Query<paths['/markets']['get']>;
export type BookSnapshot = Ok<paths['/markets/{condition_id}/book']['get']>;
export type Ticker = Ok<paths['/markets/{condition_id}/ticker']['get']>;
export type TradePage = Ok<paths['/markets/{condition_id}/trades']['get']>;
export type PublicTrade = TradePage['data'][number];
export type CandlesQuery = Query<paths['/markets/{condition_id}/candles']['get']>;
export type Candles = Ok<paths['/markets/{condition_id}/candles']['get']>;

export type PlaceOrderItem = Body<paths['/orders']['post']>['orders'][number];
export type PlaceOrdersResponse = Ok<paths['/orders']['post']>;
export type PlaceResult = PlaceOrdersResponse['results'][number];
export type OrderPage = Ok<paths['/orders']['get']>;
export type ListOrdersQuery = Query<paths['/orders']['get']>;
export type CancelOrdersBody = Body<paths['/orders/cancel']['post']>;
export type CancelOrdersResponse = Ok<paths['/orders/cancel']['post']>;
export type CancelOnchain = Ok<paths['/orders/{order_hash}/cancel-onchain']['post']>;

export type FillPage = Ok<paths['/fills']['get']>;
export type Fill = FillPage['data'][number];
export type ListFillsQuery = Query<paths['/fills']['get']>;
export type PositionPage = Ok<paths['/positions']['get']>;
export type Position = PositionPage['data'][number];
export type ListPositionsQuery = Query<paths['/positions']['get']>;
export type Balances = Ok<paths['/balances']['get']>;
export type BalancesQuery = Query<paths['/balances']['get']>;
export type HeartbeatResponse = Ok<paths['/heartbeat']['post']>;

export type IssuedApiKey = Ok<paths['/auth/api-keys']['post']>;
export type ApiKeyList = Ok<paths['/auth/api-keys']['get']>;
export type WsToken = Ok<paths['/auth/ws-token']['post']>;
export type Permission = Body<paths['/auth/api-keys']['post']> extends { permissions?: (infer P)[] } ? P : never;

export type Side = PlaceOrderItem['side'];
export type Outcome = PlaceOrderItem['outcome'];
export type OrderType = PlaceOrderItem['order_type'];

export type TradeMarketPage = Ok<paths['/trade/markets']['get']>;
export type TradeMarket = TradeMarketPage['data'][number];
export type TradeMarketsQuery = Query<paths['/trade/markets']['get']>;
export type QuoteRequest = Body<paths['/trade/quote']['post']>;
export type Quote = Ok<paths['/trade/quote']['post']>;
export type TradeRequest = Body<paths['/trade']['post']>;
export type TradeResponse = Ok<paths['/trade']['post']>;
export type RedeemRequest = Body<paths['/trade/redeem']['post']>;
export type RedeemResponse = Ok<paths['/trade/redeem']['post']>;
export type TradePositionsQuery = Query<paths['/trade/positions']['get']>;
export type TradePositionPage = Ok<paths['/trade/positions']['get']>;
export type TradePosition = TradePositionPage['data'][number];
export type SaveTxRequest = Body<paths['/trade/save']['post']>;
export type SavedTx = Ok<paths['/trade/save']['post']>;
