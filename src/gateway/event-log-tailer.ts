import type { Logger } from '../logging/logger';
import type { EventLog, LoggedEvent } from './event-log';

export interface TailerOptions {
  /** Poll period while idle (default 20 ms): the bound on delivery latency. */
  pollIntervalMs?: number;
  /** Rows read per poll (default 500); a full batch polls again at once. */
  batchSize?: number;
  /**
   * How long a hole in the seqs is waited for (default 2 s). A publisher reserves seqs, then
   * inserts: a hole is usually an insert in flight. One that never comes (publisher died between
   * the two) is skipped after this grace, and book subscribers see the gap and resnapshot.
   */
  gapGraceMs?: number;
  now?: () => number;
}

export interface EventLogTailer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Last seq handed to the listener. */
  position(): number;
}

/**
 * Polls the event log and hands events to `onEvent` strictly in seq order, starting after the
 * log's head at start (history is not replayed: snapshots come from the book collections).
 */
export function createEventLogTailer(log: EventLog, onEvent: (event: LoggedEvent) => void, logger: Logger, options: TailerOptions = {}): EventLogTailer {
  const pollIntervalMs = options.pollIntervalMs ?? 20;
  const batchSize = options.batchSize ?? 500;
  const gapGraceMs = options.gapGraceMs ?? 2_000;
  const now = options.now ?? Date.now;
  let last = 0;
  let gapSince: number | null = null;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let failing = false;

  /** Delivers the contiguous prefix of `rows`; returns whether a full batch was consumed. */
  function deliver(rows: LoggedEvent[]): boolean {
    for (const row of rows) {
      if (row.seq <= last) continue;
      if (row.seq !== last + 1) {
        gapSince ??= now();
        if (now() - gapSince < gapGraceMs) return false;
        logger.warn({ from: last + 1, to: row.seq - 1 }, 'realtime event log: skipping seqs never written');
      }
      gapSince = null;
      last = row.seq;
      try {
        onEvent(row);
      } catch (error) {
        logger.error({ err: error, seq: row.seq }, 'realtime event dispatch failed');
      }
    }
    return rows.length === batchSize;
  }

  async function poll(): Promise<void> {
    let more = true;
    while (running && more) {
      const rows = await log.readAfter(last, batchSize);
      more = deliver(rows);
    }
  }

  function schedule(delay: number): void {
    if (!running) return;
    timer = setTimeout(() => {
      inFlight = poll()
        .then(() => {
          if (failing) logger.info('realtime event log readable again');
          failing = false;
          schedule(pollIntervalMs);
        })
        .catch((error: unknown) => {
          if (!failing) logger.error({ err: error }, 'realtime event log poll failed; retrying');
          failing = true;
          schedule(Math.max(pollIntervalMs, 500));
        });
    }, delay);
  }

  return {
    async start() {
      if (running) return;
      await log.ensureIndexes();
      last = await log.head();
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await inFlight?.catch(() => undefined);
    },
    position: () => last,
  };
}
