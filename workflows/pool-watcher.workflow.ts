/**
 * One per AMM market (`pool-watcher-{chain_id}-{condition_id}`): indexes its pool's trades into
 * public trades, the ticker and the market channels, whether or not anyone saved their
 * transactions, exactly once per log. The cursor (last block scanned, by number and hash) is the
 * workflow's state and goes over continue-as-new; the run ends once the market is resolved and
 * scanned to the head. docs/amm.md, "The pool watcher", has the design.
 */
import { ActivityFailure, continueAsNew, defineQuery, log, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { PoolWatcherActivities } from '../activities/pool-watcher.activities';
import type { WatchCursor } from '../activities/scan-range';

/** A scan holds its activity up to `windowMs` (heartbeating), so a lost worker is noticed in 10 s. */
const pool = proxyActivities<PoolWatcherActivities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 3 },
});

export interface PoolWatcherInput {
  chain_id: number;
  condition_id: string;
  /** Lower case. */
  pool_address: string;
  /** Last block scanned; absent on the first run, which starts below the pool's deployment. */
  cursor?: WatchCursor | null;
  /** Head polls while nothing happens, ms; default 500. */
  pollMs?: number;
  /** How long one activity scans on, ms; default 20,000. */
  windowMs?: number;
  /** Most blocks per scan; default 1,000. */
  maxBlocks?: number;
  /** Continue as new past this many history events; default 2,000. */
  historyLimit?: number;
  /** Counters carried over continue-as-new. */
  totals?: PoolWatcherTotals;
}

export interface PoolWatcherTotals {
  scans: number;
  /** Pool trade logs scanned (a rescan counts its logs again). */
  logs: number;
  /** Trades this watcher recorded first. */
  recorded: number;
  reorgs: number;
  failedScans: number;
}

export interface PoolWatcherView extends PoolWatcherTotals {
  cursor: WatchCursor | null;
}

export const poolWatcherQuery = defineQuery<PoolWatcherView>('poolWatcher');

export async function poolWatcherWorkflow(input: PoolWatcherInput): Promise<PoolWatcherView> {
  let cursor = input.cursor ?? null;
  const totals: PoolWatcherTotals = { scans: 0, logs: 0, recorded: 0, reorgs: 0, failedScans: 0, ...input.totals };
  const pollMs = input.pollMs ?? 500;
  setHandler(poolWatcherQuery, () => ({ cursor, ...totals }));
  for (;;) {
    let scan: Awaited<ReturnType<PoolWatcherActivities['watchPool']>>;
    try {
      scan = await pool.watchPool({
        chain_id: input.chain_id, condition_id: input.condition_id, pool_address: input.pool_address, cursor,
        maxBlocks: input.maxBlocks ?? 1_000, pollMs, windowMs: input.windowMs ?? 20_000,
      });
    } catch (error) {
      // A node or store down past the retries does not end the watch: the cursor stays, the range waits.
      if (!(error instanceof ActivityFailure)) throw error;
      totals.failedScans += 1;
      log.warn('pool scan failed; watching on from the same block', { pool: input.pool_address, cursor, error: error.cause?.message ?? error.message });
      await sleep(pollMs);
      continue;
    }
    cursor = scan.cursor;
    totals.scans += 1;
    totals.logs += scan.logs;
    totals.recorded += scan.recorded;
    totals.reorgs += scan.reorged ? 1 : 0;
    if (scan.ended) return { cursor, ...totals };
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= (input.historyLimit ?? 2_000)) {
      await continueAsNew<typeof poolWatcherWorkflow>({ ...input, cursor, totals });
    }
  }
}
