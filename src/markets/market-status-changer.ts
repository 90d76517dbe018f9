import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import type { MarketRecord, MarketStatus } from '../db/models';
import type { MarketStore } from './market-store';

export interface MarketStatusChange {
  chainId: number;
  conditionId: string;
  /** The status the caller saw; the change applies only if the market still has it. */
  from: MarketStatus;
  to: MarketStatus;
  resolutionOutcome: 0 | 1 | null;
  actor: string;
  via: string;
}

/**
 * Applies a change of a market's status. Decisions section 6 says every such change goes through
 * the market's Temporal workflow (so that it orders with matching and cancels open orders); until
 * that workflow exists, `createMongoMarketStatusChanger` applies it directly. The workflow-backed
 * implementation will signal/update `market-{chain_id}-{condition_id}` and keep this interface.
 */
export interface MarketStatusChanger {
  changeStatus(change: MarketStatusChange): Promise<MarketRecord>;
}

/**
 * Direct MongoDB implementation (to be replaced by the market workflow's update). The market row
 * is changed with a conditional update on its current status, so two concurrent operators can't
 * both win; the audit row in `market_status_changes` is written after it, with who and when.
 */
export function createMongoMarketStatusChanger(store: MarketStore, now: () => Date = () => new Date()): MarketStatusChanger {
  return {
    async changeStatus(change) {
      const at = now();
      const updated = await store.markets
        .findOneAndUpdate(
          { chain_id: change.chainId, condition_id: change.conditionId, status: change.from },
          { $set: { status: change.to, resolution_outcome: change.resolutionOutcome, updated_at: at } },
          { new: true },
        )
        .lean<MarketRecord>()
        .exec();
      if (!updated) {
        throw new AppError('VALIDATION_ERROR', `Market status changed concurrently (expected ${change.from}); retry`);
      }
      await store.statusChanges.create({
        change_id: randomUUID(),
        chain_id: change.chainId,
        condition_id: change.conditionId,
        from_status: change.from,
        to_status: change.to,
        resolution_outcome: change.resolutionOutcome,
        actor: change.actor,
        via: change.via,
        at,
      });
      return updated;
    },
  };
}
