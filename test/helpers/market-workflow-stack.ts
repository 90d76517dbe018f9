/**
 * The set-up every market workflow suite shares: a database wiped after the suite, the matching
 * harness (real activities, recording publisher, held chain) with its worker on a unique task
 * queue, and the matcher client the API uses. Call it inside `describe`; `h` and `matcher` are
 * there from the suite's first test on.
 */
import type { WithId } from 'mongodb';
import type { Connection } from 'mongoose';
import type { StoredOrder } from '../../src/matching/collections';
import { createMarketMatcherClient, type MarketMatcherClient, type MarketMatcherOptions } from '../../src/temporal/market-matcher.client';
import { createHarness, type Harness } from '../workflows/market-harness';
import { useTestDatabase } from './test-database';
import { uniqueTaskQueue } from './test-temporal';

export interface MarketWorkflowStack {
  db: () => Connection;
  taskQueue: string;
  h: Harness;
  matcher: MarketMatcherClient;
  /** The stored row of the order `hash` (null when none). */
  order: (hash: string) => Promise<WithId<StoredOrder> | null>;
}

/** `workflowInput` goes to every market workflow the matcher starts (e.g. a short settlement retry delay). */
export function useMarketWorkflowStack(name: string, workflowInput?: MarketMatcherOptions['workflowInput']): MarketWorkflowStack {
  const { db } = useTestDatabase(name);
  const stack = {
    db, taskQueue: uniqueTaskQueue(name),
    order: (hash: string) => stack.h.collections.orders.findOne({ order_hash: hash }),
  } as MarketWorkflowStack;
  beforeAll(async () => {
    stack.h = await createHarness(db(), stack.taskQueue);
    await stack.h.startWorker();
    stack.matcher = createMarketMatcherClient(stack.h.client, stack.taskQueue, workflowInput ? { workflowInput } : undefined);
  });
  afterAll(async () => {
    await stack.h?.close();
  });
  return stack;
}
