/** A market's status change, written with the markets module's audit scheme. */
import { ApplicationFailure } from '@temporalio/common';
import { isDuplicateKey } from '../../src/matching/collections';
import type { StatusWrite } from '../../src/matching/payloads';
import type { MarketContext } from './context';

/** Claims of a status version a change may lose (to dead writers' claims or a moved version) before it fails the attempt. */
const MAX_STATUS_ROUNDS = 5;

export function createStatusChange({ c, publisher, logger }: MarketContext) {
  /**
   * Tells every API process before the change is answered, so none quotes from its cached record
   * of the market. A process the push cannot reach keeps its record for at most its cache's TTL.
   */
  async function announce(w: StatusWrite): Promise<void> {
    const event = { channel: 'markets' as const, chain_id: w.market.chain_id, condition_id: w.market.condition_id, status: w.to_status };
    await publisher.publish([event]).catch((error: unknown) => logger.warn({ err: error, market: w.market }, 'market status event not pushed'));
  }

  /**
   * Applies a status change with the markets module's audit scheme: the change claims audit row
   * `{chain}:{condition}:v{N+1}` (unique), then the market gets status and `status_version` N+1,
   * guarded by N. A retry that finds its own claim (same change) goes on. Another change's claim of
   * N+1 while the market is still at N is a writer that died between its two writes (the market's
   * workflow is the only writer: a run terminated mid-change); it is voided (its row kept, renamed
   * `...:void:{its change}`) and N+1 claimed again. Before, such a claim failed every retry and
   * the market's workflow stopped for good at its next status change.
   */
  async function applyMarketStatus(w: StatusWrite): Promise<void> {
    const at = new Date(w.at);
    const filter = { chain_id: w.market.chain_id, condition_id: w.market.condition_id };
    for (let round = 1; ; round++) {
      const current = await c.markets.findOne(filter);
      if (!current) throw ApplicationFailure.nonRetryable(`market ${w.market.chain_id}-${w.market.condition_id} not found`, 'NOT_FOUND');
      if (current.status === w.to_status && current.resolution_outcome === w.resolution_outcome && current.status_change_id === w.change_id) return announce(w);
      if (round > MAX_STATUS_ROUNDS) throw new Error(`status change ${w.change_id} kept losing its version to other writers`);
      const version = Number(current.status_version ?? 0) + 1;
      const change_id = `${w.market.chain_id}:${w.market.condition_id}:v${version}`;
      /** The market still at the version this round read. */
      const asRead = { ...filter, status_version: current.status_version ?? { $exists: false } };
      const other = await claimStatusVersion(change_id, w, at);
      if (other) {
        // Void it only while the market is still below it (its writer may have applied it since the read).
        const still = await c.markets.findOne(asRead, { projection: { _id: 1 } });
        if (still) await c.statusChanges.updateOne({ change_id, workflow_change_id: other.by ?? { $exists: false } }, { $set: { change_id: `${change_id}:void:${other.by ?? 'unknown'}`, voided_at: at } });
        continue;
      }
      const applied = await c.markets.updateOne(asRead, {
        $set: { status: w.to_status, resolution_outcome: w.resolution_outcome, status_version: version, status_change_id: w.change_id, updated_at: at },
      });
      if (applied.matchedCount === 1) return announce(w);
      // The version moved under the claim: read again (a retry of this change returns above).
    }
  }

  /** Claims audit row `change_id` for `w`: null when it is this change's, else which change holds it. */
  async function claimStatusVersion(change_id: string, w: StatusWrite, at: Date): Promise<{ by?: string } | null> {
    try {
      await c.statusChanges.insertOne({
        change_id, chain_id: w.market.chain_id, condition_id: w.market.condition_id, from_status: w.from_status, to_status: w.to_status,
        resolution_outcome: w.resolution_outcome, actor: w.actor, via: 'market-workflow', workflow_change_id: w.change_id, at,
      });
      return null;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const claimed = await c.statusChanges.findOne({ change_id });
      if (claimed?.workflow_change_id === w.change_id) return null;
      return { by: typeof claimed?.workflow_change_id === 'string' ? claimed.workflow_change_id : undefined };
    }
  }

  return { applyMarketStatus };
}
