/**
 * Workflow ids and keys of the matching layer. Workflow ids are wire contracts: operators search the
 * Temporal UI by them, and the API finds a market's workflow by recomputing them.
 */
export interface MarketRef {
  chain_id: number;
  condition_id: string;
}

/** `${chain_id}-${condition_id}` (condition id lower-case): the OrderRecord's `market_key`. */
export function marketKeyOf(market: MarketRef): string {
  return `${market.chain_id}-${market.condition_id.toLowerCase()}`;
}

export function marketWorkflowId(market: MarketRef): string {
  return `market-${marketKeyOf(market)}`;
}

/** A settlement batch id: `${market_key}:${number of its first trade}` (trade ids end in `:{number}`). */
export function settlementBatchIdOf(marketKey: string, firstTradeId: string): string {
  return `${marketKey}:${firstTradeId.slice(firstTradeId.lastIndexOf(':') + 1)}`;
}

/** A settlement input's groups, each with its batch id (compact inputs leave it to the first trade). */
export function settlementGroupsOf(market: MarketRef, groups: { batchId?: string; tradeIds: string[] }[]): { batchId: string; tradeIds: string[] }[] {
  const key = marketKeyOf(market);
  return groups.map((g) => ({ batchId: g.batchId ?? settlementBatchIdOf(key, g.tradeIds[0]), tradeIds: g.tradeIds }));
}

/** One settlement child per match batch: `settlement-${batchId}`. */
export function settlementWorkflowId(batchId: string): string {
  return `settlement-${batchId}`;
}

export function onchainCancelWorkflowId(orderHash: string): string {
  return `onchain-cancel-${orderHash.toLowerCase()}`;
}

/**
 * Document keys of the matching layer's growing collections. Every hot read and write addresses
 * documents by `_id` (orders: the order hash): on FerretDB only `_id` is indexed for queries.
 */
export function fillIdOf(tradeId: string, role: 'maker' | 'taker'): string {
  return `${tradeId}:${role}`;
}

/** Both fills of each trade. */
export function fillIdsOf(tradeIds: readonly string[]): string[] {
  return tradeIds.flatMap((t) => [fillIdOf(t, 'maker'), fillIdOf(t, 'taker')]);
}

/**
 * The task queue of settlement's activities, beside the worker's main queue: its own worker takes
 * a bounded number at a time (SETTLEMENT_ACTIVITY_SLOTS), so a settlement backlog cannot crowd
 * the market steps out of the store.
 */
export function settlementTaskQueue(taskQueue: string): string {
  return `${taskQueue}-settlement`;
}
