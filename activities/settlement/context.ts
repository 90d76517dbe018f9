/**
 * What every settlement activity shares: its dependencies, the final fill statuses, and the
 * wait of its database commands behind this process's market steps.
 */
import type { Logger } from '../../src/logging/logger';
import { timed } from '../../src/logging/stage-timings';
import type { FillRecord, MatchingCollections } from '../../src/matching/collections';
import { NO_STEP_PRIORITY, type StepPriority } from '../../src/matching/step-priority';
import type { RealtimeEvent, RealtimePublisher } from '../../src/ports/realtime-publisher';
import type { SettlementChain } from '../../src/settlement/settlement-port';

export interface SettlementActivityDeps {
  collections: MatchingCollections;
  publisher: RealtimePublisher;
  logger: Logger;
  chain: SettlementChain;
  /** Receipt polling interval (ms); default 1000. */
  pollMs?: number;
  /** How long `sendAndAwaitReceipts` waits on for the confirmations of mined receipts (ms); default 3000. */
  confirmWaitMs?: number;
  /** The market steps of this process, which the finish's database commands wait for (default: none). */
  priority?: StepPriority;
}

export type FillStatus = FillRecord['settlement_status'];

export const FINAL: FillStatus[] = ['CONFIRMED', 'FAILED'];
/** Filter of fills and trade rows not final yet: a final status is never written over. */
export const NOT_FINAL = { settlement_status: { $nin: FINAL } };

export interface SettlementContext {
  c: MatchingCollections;
  chain: SettlementChain;
  logger: Logger;
  pollMs: number;
  confirmWaitMs: number;
  afterSteps<T>(stage: string, run: () => Promise<T>): Promise<T>;
  /** Publishes, logging a failure instead of throwing (the rows are the truth). */
  publish(events: RealtimeEvent[]): Promise<void>;
}

export function settlementContextOf({
  collections: c, publisher, logger, chain, pollMs = 1_000, confirmWaitMs = 3_000, priority = NO_STEP_PRIORITY,
}: SettlementActivityDeps): SettlementContext {
  /** One of settlement's database commands (or a few), once no market step of this process is under way. */
  async function afterSteps<T>(stage: string, run: () => Promise<T>): Promise<T> {
    await timed('settle.yield', () => priority.quiet());
    return timed(stage, run);
  }
  const publish = async (events: RealtimeEvent[]) => {
    try {
      if (events.length > 0) await publisher.publish(events);
    } catch (error) {
      logger.error({ err: error }, 'publishing a settlement step failed');
    }
  };
  return { c, chain, logger, pollMs, confirmWaitMs, afterSteps, publish };
}
