/**
 * One per chain (`chain-watcher-{chain_id}`): follows the chain for what voids open orders without
 * the API hearing of it (decisions section 10) and takes those orders off their books through the
 * market workflows, as any other removal. The cursor (last block scanned, by number and hash) is
 * the workflow's state and goes over continue-as-new; docs/chain-watcher.md has the design.
 */
import { ActivityFailure, continueAsNew, defineQuery, getExternalWorkflowHandle, log, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { ChainWatcherActivities, Removal, WatchCursor } from '../activities/chain-watcher.activities';
import { marketWorkflowId } from '../src/matching/market-ids';
import { removeOrdersSignal } from './definitions';

/** A scan holds its activity up to `windowMs` (heartbeating), so a lost worker is noticed in 10 s. */
const watch = proxyActivities<ChainWatcherActivities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 3 },
});

export interface ChainWatcherInput {
  chainId: number;
  /** Last block scanned; absent on the first run, which starts at the head. */
  cursor?: WatchCursor | null;
  /** Deepest reorg handled, in blocks (CHAIN_CONFIRMATIONS); default 1. */
  reorgDepth?: number;
  /** Head polls while nothing happens, ms; default 1,000. */
  pollMs?: number;
  /** How long one activity scans on while it finds nothing to remove, ms; default 20,000. */
  windowMs?: number;
  /** Most blocks per scan; default 1,000. */
  maxBlocks?: number;
  /** Continue as new past this many history events; default 2,000. */
  historyLimit?: number;
  /** Counters carried over continue-as-new. */
  totals?: ChainWatcherTotals;
}

export interface ChainWatcherTotals {
  scans: number;
  events: number;
  /** Orders sent to their market for removal. */
  removed: number;
  reorgs: number;
  failedScans: number;
}

export interface ChainWatcherView extends ChainWatcherTotals {
  cursor: WatchCursor | null;
}

export const chainWatcherQuery = defineQuery<ChainWatcherView>('chainWatcher');

export async function chainWatcherWorkflow(input: ChainWatcherInput): Promise<void> {
  let cursor = input.cursor ?? null;
  const totals: ChainWatcherTotals = { scans: 0, events: 0, removed: 0, reorgs: 0, failedScans: 0, ...input.totals };
  const pollMs = input.pollMs ?? 1_000;
  setHandler(chainWatcherQuery, () => ({ cursor, ...totals }));
  for (;;) {
    let scan: Awaited<ReturnType<ChainWatcherActivities['watchChain']>>;
    try {
      scan = await watch.watchChain({
        chainId: input.chainId, cursor, reorgDepth: input.reorgDepth ?? 1, maxBlocks: input.maxBlocks ?? 1_000, pollMs, windowMs: input.windowMs ?? 20_000,
      });
    } catch (error) {
      // A node or store down past the retries does not end the watch: the cursor stays, the range waits.
      if (!(error instanceof ActivityFailure)) throw error;
      totals.failedScans += 1;
      log.warn('chain scan failed; watching on from the same block', { chainId: input.chainId, cursor, error: error.cause?.message ?? error.message });
      await sleep(pollMs);
      continue;
    }
    for (const removal of scan.removals) {
      await remove(removal);
      totals.removed += removal.hashes.length;
    }
    cursor = scan.cursor;
    totals.scans += 1;
    totals.events += scan.events;
    totals.reorgs += scan.reorged ? 1 : 0;
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= (input.historyLimit ?? 2_000)) {
      await continueAsNew<typeof chainWatcherWorkflow>({ ...input, cursor, totals });
    }
  }
}

/** Hashes per removal signal, so a signal stays far below the payload limit. */
const HASHES_PER_SIGNAL = 500;

/** The cursor moves past a removal only once its market has it (a signal is durable once sent). */
async function remove(removal: Removal): Promise<void> {
  const market = getExternalWorkflowHandle(marketWorkflowId(removal.market));
  try {
    for (let i = 0; i < removal.hashes.length; i += HASHES_PER_SIGNAL) {
      await market.signal(removeOrdersSignal, { hashes: removal.hashes.slice(i, i + HASHES_PER_SIGNAL), reason: removal.reason, at: Date.now() });
    }
  } catch (error) {
    // No workflow for the market yet: its first orders are still on their way to it (docs/chain-watcher.md, Limits).
    log.warn('market workflow not found for a removal', { market: removal.market, reason: removal.reason, orders: removal.hashes.length, error: String(error) });
  }
}
