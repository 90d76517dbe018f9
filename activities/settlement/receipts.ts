/** Waiting for receipts and confirmations: polls that heartbeat, and what each receipt decides. */
import { Context } from '@temporalio/activity';
import type { ReceiptState } from '../../src/settlement/settlement-port';
import type { SettlementContext } from './context';

/** A mined receipt as settlement decides on it (`matchedTakers`, `refusedTakers`: when the chain tells). */
export interface MinedReceipt {
  success: boolean;
  confirmed: boolean;
  blockNumber?: string;
  matchedTakers?: string[];
  refusedTakers?: { taker: string; reason: string }[];
}

/** Per transaction, what the workflow decides on (recorded in its history): the takers stay in the activity. */
export function verdictsOf(receipts: Record<string, MinedReceipt>): Record<string, { success: boolean; confirmed: boolean }> {
  return Object.fromEntries(Object.entries(receipts).map(([hash, { success, confirmed }]) => [hash, { success, confirmed }]));
}

/** Failed receipt reads per warning while a node does not answer (at one poll a second, one line every ~30 s). */
const RECEIPT_FAILURES_PER_LOG = 30;

export function createReceiptWaits({ chain, logger, pollMs }: SettlementContext) {
  /**
   * Polls the receipts of `txHashes` (heartbeating between polls) until `decide` gives each one a
   * verdict (undefined: keep waiting); per hash, its verdict. A receipt read that fails (the node
   * does not answer) is a poll without news: the wait goes on, bounded by the activity's timeout,
   * instead of failing the activity, whose few retries a node restart outlasts (the settlement
   * would fail with its fills still PENDING or MINED) and whose retry would send again.
   */
  async function pollReceipts<T>(chainId: number, txHashes: string[], decide: (r: ReceiptState) => T | undefined): Promise<Record<string, T>> {
    const done: Record<string, T> = {};
    let waiting = [...new Set(txHashes)];
    let failedReads = 0;
    for (;;) {
      const states = await Promise.all(waiting.map((h) => chain.getReceipt(chainId, h).catch((error: unknown) => {
        // The first failure of a run of them, then one in RECEIPT_FAILURES_PER_LOG: an outage is seen, not a flood.
        if (failedReads++ % RECEIPT_FAILURES_PER_LOG === 0) {
          logger.warn({ err: (error instanceof Error ? error.message : String(error)).split('\n')[0], txHash: h, failedReads }, 'receipt read failed; polling on');
        }
        return undefined;
      })));
      waiting = waiting.filter((h, i) => {
        const state = states[i];
        const verdict = state === undefined ? undefined : decide(state);
        if (verdict === undefined) return true;
        done[h] = verdict;
        return false;
      });
      if (waiting.length === 0) return done;
      Context.current().heartbeat();
      await Context.current().sleep(pollMs);
    }
  }

  /** Polls until the transaction is mined; success false when it reverted. */
  async function awaitReceipt(q: { chainId: number; txHash: string }): Promise<{ success: boolean; blockNumber: string }> {
    const done = await pollReceipts(q.chainId, [q.txHash], (r) => (r.status === 'pending' ? undefined : { success: r.status === 'success', blockNumber: r.blockNumber }));
    return done[q.txHash];
  }

  /** Polls until the receipt has enough confirmations; confirmed false when it left the chain (reorg) or reverted. */
  async function awaitConfirmations(q: { chainId: number; txHash: string }): Promise<{ confirmed: boolean }> {
    return { confirmed: (await awaitConfirmationsOf({ chainId: q.chainId, txHashes: [q.txHash] }))[q.txHash] };
  }

  /**
   * `awaitReceipt` for many transactions at once: per hash, whether it succeeded and whether it
   * already has the required confirmations (then the workflow moves its fills to CONFIRMED at once).
   */
  async function awaitReceipts(q: { chainId: number; txHashes: string[] }): Promise<Record<string, { success: boolean; confirmed: boolean }>> {
    return verdictsOf(await awaitMinedReceipts(q));
  }

  /** `awaitReceipts`, with the takers each receipt says were matched (when it says). */
  function awaitMinedReceipts(q: { chainId: number; txHashes: string[] }, waitForConfirmationsMs = 0): Promise<Record<string, MinedReceipt>> {
    const started = Date.now();
    return pollReceipts(q.chainId, q.txHashes, (r) => {
      if (r.status === 'pending') return undefined;
      const confirmed = r.status === 'success' && r.confirmations >= chain.requiredConfirmations;
      if (r.status === 'success' && !confirmed && Date.now() - started < waitForConfirmationsMs) return undefined;
      return { success: r.status === 'success', confirmed, blockNumber: r.blockNumber, matchedTakers: r.matchedTakers, refusedTakers: r.refusedTakers };
    });
  }

  /** `awaitConfirmations` for many transactions at once: per hash, whether it reached the confirmations. */
  function awaitConfirmationsOf(q: { chainId: number; txHashes: string[] }): Promise<Record<string, boolean>> {
    return pollReceipts(q.chainId, q.txHashes, (r) => (r.status === 'success' && r.confirmations < chain.requiredConfirmations ? undefined : r.status === 'success'));
  }

  return { awaitReceipt, awaitConfirmations, awaitReceipts, awaitMinedReceipts, awaitConfirmationsOf };
}

export type ReceiptWaits = ReturnType<typeof createReceiptWaits>;
