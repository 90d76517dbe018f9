/**
 * The workflow-backed `MarketStatusChanger` of the markets module: every change of a market's
 * status goes through its market workflow (decisions section 6), which orders it with matching,
 * cancels resting orders on CLOSED/RESOLVED and writes the market and its audit row.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { MarketRecord } from '../db/models';
import { AppError } from '../errors';
import type { MarketStatusChanger } from '../markets/market-status-changer';
import type { MarketMatcherClient } from './market-matcher.client';

export function createWorkflowMarketStatusChanger(
  matcher: MarketMatcherClient,
  readMarket: (chainId: number, conditionId: string) => Promise<MarketRecord | null>,
): MarketStatusChanger {
  return {
    async changeStatus(change) {
      const market = { chain_id: change.chainId, condition_id: change.conditionId };
      try {
        await matcher.changeStatus(market, {
          status: change.to, resolution_outcome: change.resolutionOutcome ?? undefined, actor: change.actor, expected_from: change.from,
        });
      } catch (error) {
        // The workflow's validator refused it (stale `from`, resolved market, missing outcome).
        if (error instanceof WorkflowUpdateFailedError) {
          throw new AppError('VALIDATION_ERROR', (error.cause as Error | undefined)?.message ?? error.message, undefined, { cause: error });
        }
        throw error;
      }
      const updated = await readMarket(change.chainId, change.conditionId);
      if (!updated) throw new AppError('NOT_FOUND', 'Market not found');
      return updated;
    },
  };
}
