import { Router } from 'express';
import { parseQuery } from '../http/query';
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

/** /v1/orders*: validate -> one use case -> present. */
export function ordersRoutes(ctx: OrderContext, requireL2: OrderEntryDeps['requireL2']): Router {
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
    // The chain watcher (workflows/chain-watcher.workflow.ts) sees the cancel once it is mined.
    res.json(await cancelOnchainCalldata(ctx, walletOf(req), order_hash));
  });

  return router;
}
