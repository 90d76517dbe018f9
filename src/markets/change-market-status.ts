import { AppError } from '../errors';
import type { MarketRecord, MarketStatus } from '../db/models';
import type { ChainRegistry } from './chains';
import type { MarketStatusChanger } from './market-status-changer';
import type { MarketStore } from './market-store';
import type { MarketChainSync } from './market-chain-status-input';
import { canTransition } from './market-transitions';

export interface ChangeMarketStatusDeps {
  store: MarketStore;
  chains: ChainRegistry;
  statusChanger: MarketStatusChanger;
  /** Carries the status to the chain (payouts, pool pause/close) on the worker; absent: nothing on chain. */
  chainSync?: MarketChainSync;
}

export interface ChangeMarketStatusInput {
  chainId?: number;
  conditionId: string;
  status: Exclude<MarketStatus, 'SEEDING'>;
  resolutionOutcome?: 0 | 1;
  actor: string;
}

/**
 * Operator status change (pause, close, reopen, resolve). Asking for the status a market already
 * has is a no-op that returns the market; a transition outside `ALLOWED_TRANSITIONS` is 422.
 */
export async function changeMarketStatus(deps: ChangeMarketStatusDeps, input: ChangeMarketStatusInput): Promise<MarketRecord> {
  const chain = deps.chains.require(input.chainId);
  const conditionId = input.conditionId.toLowerCase();
  const market = await deps.store.markets.findOne({ chain_id: chain.chain_id, condition_id: conditionId }).lean<MarketRecord>().exec();
  if (!market) throw new AppError('NOT_FOUND', 'Market not found');
  const resolving = input.status === 'RESOLVED';
  if (resolving && input.resolutionOutcome === undefined) {
    throw new AppError('VALIDATION_ERROR', 'resolution_outcome (0 or 1) is required to resolve a market');
  }
  if (!resolving && input.resolutionOutcome !== undefined) {
    throw new AppError('VALIDATION_ERROR', 'resolution_outcome is only allowed with status RESOLVED');
  }
  if (market.status === input.status) {
    if (resolving && market.resolution_outcome !== input.resolutionOutcome) {
      throw new AppError('VALIDATION_ERROR', `Market is already resolved with outcome ${String(market.resolution_outcome)}`);
    }
    // Asking again also carries the status to the chain again: the repair after a failed start.
    await syncChain(deps, market);
    return market;
  }
  if (!canTransition(market.status, input.status)) {
    throw new AppError('VALIDATION_ERROR', `A market cannot move from ${market.status} to ${input.status}`);
  }
  const changed = await deps.statusChanger.changeStatus({
    chainId: chain.chain_id,
    conditionId,
    from: market.status,
    to: input.status,
    resolutionOutcome: resolving ? (input.resolutionOutcome ?? null) : null,
    actor: input.actor,
    via: 'admin-api',
  });
  await syncChain(deps, changed);
  return changed;
}

/** Resolution of any market, and every status of an AMM market, has a chain side. */
async function syncChain(deps: ChangeMarketStatusDeps, market: MarketRecord): Promise<void> {
  if (market.status !== 'RESOLVED' && market.kind !== 'AMM') return;
  await deps.chainSync?.sync({ chain_id: market.chain_id, condition_id: market.condition_id });
}
