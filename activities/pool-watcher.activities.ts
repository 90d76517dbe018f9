/**
 * The pool watcher's one activity (workflows/pool-watcher.workflow.ts): scans its pool's `Buy` and
 * `Sell` logs after the cursor and records each as a public trade through the same recorder as a
 * saved transaction, keyed by (chain id, tx hash, log index). A range scanned twice (a retried
 * activity, a reorg rescan, a saved transaction that got there first) writes nothing twice.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Connection } from 'mongoose';
import type { Address } from 'viem';
import { createPoolTradeRecorder, type MinedPoolTrade } from '../src/amm/pool-trade-recorder';
import type { PoolWatchChain } from '../src/amm/pool-logs';
import { poolTradeOf } from '../src/amm/pool-trades-of-tx';
import type { BlockRef } from '../src/chain/watched-events';
import type { RealtimePublisher } from '../src/ports/realtime-publisher';
import { createMarketModel, type MarketRecord } from '../src/db/models';
import type { Logger } from '../src/logging/logger';
import { nextScanStart, type WatchCursor } from './scan-range';

export interface PoolScanInput {
  chain_id: number;
  condition_id: string;
  /** Lower case. */
  pool_address: string;
  /** Null: the first scan, which starts below the pool's deployment block. */
  cursor: WatchCursor | null;
  /** Most blocks per scan (a watcher catching up after an outage goes in steps). */
  maxBlocks: number;
  /** Between scans at the head, ms. */
  pollMs: number;
  /** Scans in one activity for up to this long, ms (keeps the history short). */
  windowMs: number;
}

export interface PoolScanResult {
  cursor: WatchCursor;
  /** Trades this activity wrote first (a saved transaction may have written others). */
  recorded: number;
  /** Pool trade logs scanned. */
  logs: number;
  reorged: boolean;
  /** The market is RESOLVED and the scan reached the head: its pool trades no more. */
  ended: boolean;
}

export interface PoolWatcherDeps {
  db: Connection;
  publisher: RealtimePublisher;
  chain: () => PoolWatchChain;
  logger: Logger;
  now?: () => Date;
}

export function createPoolWatcherActivities(deps: PoolWatcherDeps) {
  const recorder = createPoolTradeRecorder(deps.db);
  const markets = createMarketModel(deps.db);
  const now = deps.now ?? (() => new Date());

  /** The watcher's first cursor: the block before the pool's code appeared, so no trade is missed. */
  async function firstCursor(chain: PoolWatchChain, input: PoolScanInput, head: BlockRef): Promise<WatchCursor> {
    const deployed = await chain.deployedAt(input.pool_address as Address, head.number);
    if (deployed === null) throw ApplicationFailure.retryable(`no pool code at ${input.pool_address} on chain ${input.chain_id}`, 'NOT_FOUND');
    const before = deployed > 0n ? await chain.blockRef(deployed - 1n) : null;
    if (!before) throw new Error(`chain has no block ${deployed - 1n}`);
    return { block: before.number.toString(), hash: before.hash };
  }

  /** One range: its trades recorded and published, and where the next one starts. */
  async function scanOnce(chain: PoolWatchChain, input: PoolScanInput, cursor: WatchCursor): Promise<Omit<PoolScanResult, 'ended'> & { caughtUp: boolean }> {
    const head = await chain.blockRef('latest');
    if (!head) throw new Error('chain has no head block');
    // Logs are recorded once they have `confirmations` blocks (the head itself at 1).
    const safeNumber = head.number - BigInt(chain.confirmations - 1);
    const safe = safeNumber === head.number ? head : await chain.blockRef(safeNumber);
    if (!safe) throw new Error(`chain has no block ${safeNumber}`);
    const { from, reorged } = await nextScanStart(chain, cursor, safe, chain.confirmations);
    if (reorged) deps.logger.warn({ chainId: input.chain_id, pool: input.pool_address, cursor, rescanFrom: from.toString() }, 'pool watcher: cursor block replaced (reorg); scanning again');
    if (from > safe.number) return { cursor: { block: safe.number.toString(), hash: safe.hash }, recorded: 0, logs: 0, reorged, caughtUp: true };
    const last = from + BigInt(input.maxBlocks) - 1n;
    const to = last < safe.number ? await chain.blockRef(last) : safe;
    if (!to) throw new Error(`chain has no block ${last}`);
    const trades = await chain.trades([input.pool_address as Address], from, to.number);
    const mined: MinedPoolTrade[] = trades.map((t) => ({ ...poolTradeOf(t, input.condition_id), tx_hash: t.tx_hash, block_number: t.block_number }));
    const { events } = mined.length > 0 ? await recorder.record(input.chain_id, mined, now()) : { events: [] };
    if (events.length > 0) await deps.publisher.publish(events);
    return {
      cursor: { block: to.number.toString(), hash: to.hash }, recorded: events.filter((e) => e.channel === 'trades').length, logs: trades.length, reorged, caughtUp: to.number === safe.number,
    };
  }

  /**
   * Scans from the cursor for up to `windowMs`, heartbeating the cursor after each range: a retry
   * after a lost worker goes on from the last range recorded.
   */
  async function watchPool(input: PoolScanInput): Promise<PoolScanResult> {
    const ctx = Context.current();
    const chain = deps.chain();
    if (chain.chainId !== input.chain_id) throw ApplicationFailure.nonRetryable(`this worker watches chain ${chain.chainId}, not ${input.chain_id}`, 'CHAIN_MISMATCH');
    const until = Date.now() + input.windowMs;
    let cursor = (ctx.info.heartbeatDetails as WatchCursor | undefined) ?? input.cursor;
    if (!cursor) {
      const head = await chain.blockRef('latest');
      if (!head) throw new Error('chain has no head block');
      cursor = await firstCursor(chain, input, head);
    }
    const total = { recorded: 0, logs: 0, reorged: false };
    for (;;) {
      const scan = await scanOnce(chain, input, cursor);
      cursor = scan.cursor;
      total.recorded += scan.recorded;
      total.logs += scan.logs;
      total.reorged ||= scan.reorged;
      ctx.heartbeat(cursor);
      if (Date.now() >= until) {
        const market = await markets.findOne({ chain_id: input.chain_id, condition_id: input.condition_id }, { status: 1 }).lean<Pick<MarketRecord, 'status'>>().exec();
        return { cursor, ...total, ended: scan.caughtUp && market?.status === 'RESOLVED' };
      }
      if (scan.caughtUp) await ctx.sleep(input.pollMs);
    }
  }

  return { watchPool };
}

export type PoolWatcherActivities = ReturnType<typeof createPoolWatcherActivities>;
