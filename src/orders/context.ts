import type { RequestHandler } from 'express';
import type { Connection } from 'mongoose';
import type { MarketMatcher } from '../ports/market-matcher';
import { createMarketModel, type MarketModel } from '../db/models/market.model';
import { createTickerModel, type TickerModel } from '../db/models/ticker.model';
import type { Logger } from '../logging/logger';
import { BalanceCache, DEFAULT_BALANCE_TTL_MS } from './balance-cache';
import { ClientOrderIds } from './client-order-ids';
import type { OrderChainPort } from './chain-port';
import type { DeadManSwitch } from '../heartbeat/dead-man-switch';
import { IdempotencyStore } from './idempotency';
import { MarketRecordCache } from './market-record-cache';
import { createPlacementWrites, type PlacementWrites } from './placement-writes';
import { createFillReadModel, createIdempotencyKeyModel, createOrderModel, createWalletReservationModel } from './models';
import { createPositionReadModel, type PositionReadModel } from '../positions/position.model';
import type { FillReadModel, IdempotencyKeyModel, OrderModel, WalletReservationModel } from './models';
import { ReservationStore } from './reservations';
import { CANCEL_PAGE } from './cancel-page';

export type Permission = 'read' | 'trade';

/** What the lead wires in (see docs/orders.md). */
export interface OrderEntryDeps {
  connection: Connection;
  matcher: MarketMatcher;
  chain: OrderChainPort;
  /** The auth module's `requireL2(permission)`: sets `req.auth.wallet` or fails the request. */
  requireL2: (permission: Permission) => RequestHandler;
  logger?: Logger;
  clock?: () => Date;
  /** Lifetime of cached chain reads at placement (default 2000 ms). */
  balanceTtlMs?: number;
  /** Chain ids the service serves; another `chain_id` filter is NOT_FOUND (default [56]). */
  chainIds?: number[];
  /** Market records shared with the /trade quotes (default: one of its own). */
  marketRecords?: MarketRecordCache;
  /** A shared cache, so the settlement side can call `invalidateWallet` on it. */
  balanceCache?: BalanceCache;
  /** Live orders one cancel-by-filter or cancel-all request ends at most (default CANCEL_PAGE). */
  cancelPage?: number;
  /** The wallets' dead-man switches (POST /v1/heartbeat); the route is absent without it. */
  deadManSwitch?: DeadManSwitch;
}

export interface OrderContext {
  models: {
    orders: OrderModel; fills: FillReadModel; positions: PositionReadModel; idempotency: IdempotencyKeyModel; reservations: WalletReservationModel; markets: MarketModel; tickers: TickerModel;
  };
  matcher: MarketMatcher;
  chain: OrderChainPort;
  balances: BalanceCache;
  /** Placement's database commands, shared by concurrent requests (placement-writes.ts). */
  placementWrites: PlacementWrites;
  /** Market records for placement checks, kept 1 s (market-record-cache.ts). */
  marketRecords: MarketRecordCache;
  reservationStore: ReservationStore;
  /** Claims of `client_order_id`s, race-free across processes (client-order-ids.ts). */
  clientOrderIds: ClientOrderIds;
  idempotencyStore: IdempotencyStore;
  clock: () => Date;
  logger?: Logger;
  chainIds: number[];
  cancelPage: number;
  /** Resolves once the unique indexes exist (the order-hash index is correctness, not speed). */
  ready(): Promise<void>;
}

export function createOrderContext(deps: Omit<OrderEntryDeps, 'requireL2'>): OrderContext {
  const clock = deps.clock ?? (() => new Date());
  const orders = createOrderModel(deps.connection);
  const reservations = createWalletReservationModel(deps.connection);
  const idempotency = createIdempotencyKeyModel(deps.connection);
  const markets = createMarketModel(deps.connection);
  let indexes: Promise<void> | undefined;
  const ready = () => {
    indexes ??= Promise.all([orders.init(), reservations.init(), idempotency.init()]).then(
      () => undefined,
      (error: unknown) => {
        indexes = undefined; // retried by the next request
        throw error;
      },
    );
    return indexes;
  };
  return {
    ready,
    models: {
      orders,
      fills: createFillReadModel(deps.connection),
      positions: createPositionReadModel(deps.connection),
      idempotency,
      reservations,
      markets,
      tickers: createTickerModel(deps.connection),
    },
    matcher: deps.matcher,
    chain: deps.chain,
    marketRecords: deps.marketRecords ?? new MarketRecordCache(markets),
    placementWrites: createPlacementWrites(orders),
    balances: deps.balanceCache ?? new BalanceCache(deps.chain, deps.balanceTtlMs ?? DEFAULT_BALANCE_TTL_MS),
    reservationStore: new ReservationStore(reservations, orders, clock),
    clientOrderIds: ClientOrderIds.on(deps.connection, orders, clock),
    idempotencyStore: new IdempotencyStore(idempotency, clock),
    clock,
    logger: deps.logger,
    chainIds: deps.chainIds ?? [56],
    cancelPage: deps.cancelPage ?? CANCEL_PAGE,
  };
}
