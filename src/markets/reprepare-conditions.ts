import type { Logger } from '../logging/logger';
import type { MarketRecord } from '../db/models';
import type { ConditionPreparer } from './condition-preparer';
import type { MarketStore } from './market-store';

/**
 * The embedded chain forgets its state at every start (EDR is in memory) while the markets stay
 * in MongoDB. Preparing again every market whose condition this service prepared (it has a
 * question_id) restores the same condition and position ids, since the contracts redeploy at the
 * same addresses with the same operator. Idempotent; call at start on local chains.
 */
export async function reprepareMarketConditions(deps: {
  store: MarketStore;
  chainId: number;
  preparer: ConditionPreparer;
  logger?: Logger;
}): Promise<number> {
  const markets = await deps.store.markets
    .find({ chain_id: deps.chainId, question_id: { $ne: null } })
    .lean<MarketRecord[]>()
    .exec();
  let prepared = 0;
  for (const market of markets) {
    const result = await deps.preparer.prepareBinaryCondition(market.question_id as string);
    if (result.conditionId !== market.condition_id) {
      deps.logger?.warn({ condition_id: market.condition_id, got: result.conditionId }, 'market condition differs on this chain (operator changed?)');
      continue;
    }
    prepared += 1;
  }
  return prepared;
}
