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

/** Audit id of a market's Nth status change (creation is 0): unique, so one change per version. */
export function statusChangeId(chainId: number, conditionId: string, version: number): string {
  return `${chainId}:${conditionId}:v${version}`;
}

/**
 * Direct MongoDB implementation (to be replaced by the market workflow's update). FerretDB has
 * no transactions and its findOneAndUpdate is not atomic under concurrency, so the change is
 * claimed first by inserting its audit row with id `{chain}:{condition}:v{N+1}` (a unique index:
 * of two concurrent operators only one can claim version N+1), then applied to the market.
 */
export function createMongoMarketStatusChanger(store: MarketStore, now: () => Date = () => new Date()): MarketStatusChanger {
  return {
    async changeStatus(change) {
      const at = now();
      const current = await store.markets
        .findOne({ chain_id: change.chainId, condition_id: change.conditionId })
        .lean<MarketRecord>()
        .exec();
      if (!current || current.status !== change.from) {
        throw new AppError('VALIDATION_ERROR', `Market status changed concurrently (expected ${change.from}); retry`);
      }
      const version = (current.status_version ?? 0) + 1;
      try {
        await store.statusChanges.create({
          change_id: statusChangeId(change.chainId, change.conditionId, version),
          chain_id: change.chainId,
          condition_id: change.conditionId,
          from_status: change.from,
          to_status: change.to,
          resolution_outcome: change.resolutionOutcome,
          actor: change.actor,
          via: change.via,
          at,
        });
      } catch (error) {
        if ((error as { code?: number })?.code === 11000) {
          throw new AppError('VALIDATION_ERROR', 'Another status change of this market won the race; retry');
        }
        throw error;
      }
      await store.markets
        .updateOne(
          { chain_id: change.chainId, condition_id: change.conditionId },
          { $set: { status: change.to, resolution_outcome: change.resolutionOutcome, status_version: version, updated_at: at } },
        )
        .exec();
      return { ...current, status: change.to, resolution_outcome: change.resolutionOutcome, status_version: version, updated_at: at };
    },
  };
}

/**
 * This process forgets its cached record of a market once a change of it is applied, even when
 * the worker's push of the change could not reach it.
 */
export function forgettingChanged(changer: MarketStatusChanger, records: { invalidate(market: { chain_id: number; condition_id: string }): void }): MarketStatusChanger {
  return {
    async changeStatus(change) {
      try {
        return await changer.changeStatus(change);
      } finally {
        records.invalidate({ chain_id: change.chainId, condition_id: change.conditionId });
      }
    },
  };
}
