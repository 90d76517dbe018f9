import type { Connection } from 'mongoose';
import type { RealtimeEvent, RealtimePublisher } from '../ports/realtime-publisher';
import type { Logger } from '../logging/logger';
import { createEventLog } from './event-log';
import { createPushPublisher, PushPublisherOptions } from './push-publisher';

/**
 * How events travel from workers to API processes. `push` (default): HTTP to every registered
 * API process. `log`: an event log collection the API processes poll; only for a real MongoDB
 * (FerretDB 1.x scans the whole collection on every poll, docs/realtime.md).
 */
export type Fanout = 'push' | 'log';

export interface RealtimePublisherDeps {
  db: Connection;
  logger?: Logger;
  fanout?: Fanout;
  push?: PushPublisherOptions;
  /** Events older than this are swept from the log (default 10 minutes). */
  retentionMs?: number;
  /** How often a publisher sweeps (default once a minute). */
  sweepEveryMs?: number;
  now?: () => Date;
}

/**
 * The worker side of the fan-out (see Fanout). Activities must write their documents (book
 * levels, orders, fills) before publishing, so a snapshot read after an event never misses what
 * the event announced.
 */
export function createRealtimePublisher(deps: RealtimePublisherDeps): RealtimePublisher {
  return (deps.fanout ?? 'push') === 'push' ? createPushPublisher(deps.db, deps.logger, deps.push) : createLogPublisher(deps);
}

/** `log` fanout: appends with consecutive seqs, in order; resolves once stored. */
function createLogPublisher(deps: RealtimePublisherDeps): RealtimePublisher {
  const log = createEventLog(deps.db);
  const retentionMs = deps.retentionMs ?? 10 * 60_000;
  const sweepEveryMs = deps.sweepEveryMs ?? 60_000;
  const now = deps.now ?? (() => new Date());
  let indexes: Promise<void> | undefined;
  let lastSweep = 0;

  async function maybeSweep(): Promise<void> {
    const at = now().getTime();
    if (at - lastSweep < sweepEveryMs) return;
    lastSweep = at;
    try {
      await log.sweep(new Date(at - retentionMs));
    } catch (error) {
      deps.logger?.warn({ err: error }, 'realtime event log sweep failed');
    }
  }

  return {
    async publish(events: RealtimeEvent[]) {
      if (events.length === 0) return;
      indexes ??= log.ensureIndexes().catch((error: unknown) => {
        indexes = undefined;
        throw error;
      });
      await indexes;
      await log.append(events);
      await maybeSweep();
    },
  };
}
