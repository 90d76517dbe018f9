import { Router } from 'express';
import { parseQuery } from '../api/query';
import { AppError } from '../errors';
import { validateOrThrow } from '../validation/ajv';
import { cancelOnchainCalldata } from './cancel-onchain';
import { cancelOrders } from './cancel-orders';
import type { OrderContext, OrderEntryDeps } from './context';
import { checkIdempotencyKey, hashBody } from './idempotency';
import {
  MAX_ORDERS_PER_BATCH,
  ordersQuerySchema,
  validateCancelBody,
  validateOrderHashParam,
  validateOrdersQuery,
  validatePlaceOrdersBody,
} from './order.schema';
import { placeOrders } from './place-orders';
import { getOrder, listOrders } from './read-orders';
import { walletOf } from './request-wallet';

export interface OrdersRouteOptions {
  /** Called after cancel-onchain calldata is handed out, e.g. to watch the chain for that cancel. */
  onCancelOnchainRequested?: (order: { order_hash: string; wallet: string; chain_id: number; condition_id: string }) => Promise<void>;
}

/** /v1/orders*: validate -> one use case -> present. */
export function ordersRoutes(ctx: OrderContext, requireL2: OrderEntryDeps['requireL2'], options: OrdersRouteOptions = {}): Router {
  const router = Router();

  router.post('/orders', requireL2('trade'), async (req, res) => {
    const wallet = walletOf(req);
    const orders = (req.body as { orders?: unknown } | undefined)?.orders;
    if (Array.isArray(orders) && orders.length > MAX_ORDERS_PER_BATCH) {
      throw new AppError('BATCH_SIZE_EXCEEDED', `At most ${MAX_ORDERS_PER_BATCH} orders per placement, got ${orders.length}`);
    }
    const body = validateOrThrow(validatePlaceOrdersBody, req.body, 'body');
    const rawKey = req.header('fs-idempotency-key');
    if (rawKey === undefined) {
      res.json(await placeOrders(ctx, wallet, body.orders));
      return;
    }
    const key = checkIdempotencyKey(rawKey);
    const { response, replayed } = await ctx.idempotencyStore.run(wallet, key, hashBody(body), () => placeOrders(ctx, wallet, body.orders));
    res.json(replayed ? { ...response, _idempotent_replayed: true } : response);
  });

  router.post('/orders/cancel', requireL2('trade'), async (req, res) => {
    const body = validateOrThrow(validateCancelBody, req.body, 'body');
    res.json(await cancelOrders(ctx, walletOf(req), body));
  });

  router.get('/orders', requireL2('read'), async (req, res) => {
    const query = parseQuery(ordersQuerySchema, validateOrdersQuery, req.query, { lowerCase: ['status'] });
    res.json(await listOrders(ctx, walletOf(req), query));
  });

  router.get('/orders/:order_hash', requireL2('read'), async (req, res) => {
    const { order_hash } = validateOrThrow(validateOrderHashParam, req.params, 'path');
    res.json(await getOrder(ctx, walletOf(req), order_hash));
  });

  router.post('/orders/:order_hash/cancel-onchain', requireL2('trade'), async (req, res) => {
    const { order_hash } = validateOrThrow(validateOrderHashParam, req.params, 'path');
    const wallet = walletOf(req);
    const calldata = await cancelOnchainCalldata(ctx, wallet, order_hash);
    if (options.onCancelOnchainRequested) {
      const order = await ctx.models.orders.findById(order_hash.toLowerCase(), { order_hash: 1, wallet: 1, chain_id: 1, condition_id: 1 }).lean();
      if (order) {
        await options.onCancelOnchainRequested({ order_hash: order.order_hash, wallet: order.wallet, chain_id: order.chain_id, condition_id: order.condition_id }).catch((error: unknown) => {
          ctx.logger?.warn({ err: error, order_hash }, 'could not start the on-chain cancel watch');
        });
      }
    }
    res.json(calldata);
  });

  return router;
}
