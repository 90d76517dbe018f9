import type { Router } from 'express';
import { balancesRoutes } from './balances.routes';
import { heartbeatLeanRoute, heartbeatRoutes } from './heartbeat.routes';
import type { LeanRoute } from '../api/lean-routes';
import { createOrderContext, type OrderContext, type OrderEntryDeps } from './context';
import { fillsRoutes } from './fills.routes';
import { startOrderMaintenance } from './maintenance';
import { ordersRoutes } from './orders.routes';
import { positionsRoutes } from './positions.routes';
import { createOrderEventHook } from './realtime-hooks';
import type { RealtimeEvent } from '../ports/realtime-publisher';

export interface OrderRouters {
  /** Mount under /v1 (createApp's v1Routers). */
  routers: Router[];
  /** The same routers' hottest routes, for the server's lean path (startApiServer's `leanRoutes`). */
  leanRoutes: LeanRoute[];
  /** Models, stores and the balance cache, for wiring (e.g. settlement calling balances.invalidateWallet). */
  context: OrderContext;
  /** Starts the idempotency-key cleanup timer (unref'd); returns its stop function. */
  startMaintenance: () => () => void;
  /** Feed every realtime event this process tails: invalidates cached balances, releases holds. */
  onRealtimeEvent: (event: RealtimeEvent) => Promise<void>;
}

/** Order entry and private reads: POST/GET /v1/orders*, GET /v1/fills, GET /v1/positions. */
export function createOrderRouters(deps: OrderEntryDeps): OrderRouters {
  const context = createOrderContext(deps);
  return {
    routers: [
      ordersRoutes(context, deps.requireL2),
      fillsRoutes(context, deps.requireL2),
      positionsRoutes(context, deps.requireL2),
      balancesRoutes(context, deps.requireL2),
      ...(deps.deadManSwitch ? [heartbeatRoutes(deps.deadManSwitch, deps.requireL2)] : []),
    ],
    leanRoutes: deps.deadManSwitch ? [heartbeatLeanRoute(deps.deadManSwitch, deps.requireL2)] : [],
    context,
    startMaintenance: () => startOrderMaintenance(context),
    onRealtimeEvent: createOrderEventHook(context),
  };
}

export { createOrderContext, type OrderContext, type OrderEntryDeps, type Permission } from './context';
export type { OrderChainPort } from './chain-port';
export { createViemOrderChainPort } from './viem-chain-port';
export { orderChainPortFromChainPorts } from './chain-port.adapter';
export { BalanceCache, DEFAULT_BALANCE_TTL_MS } from './balance-cache';
export { ReservationStore, collateralAsset, tokenAsset } from './reservations';
export { IdempotencyStore, IDEMPOTENCY_TTL_MS } from './idempotency';
export * from './models';
