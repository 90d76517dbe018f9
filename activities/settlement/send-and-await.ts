/** Sending a step's groups and waiting for their receipts as one activity. */
import type { SettlementContext } from './context';
import { verdictsOf, type ReceiptWaits } from './receipts';
import { refusedInside, type RefusalChecks } from './refused-groups';
import type { GroupSends } from './send-groups';
import type { SendFailures, SendOutcome, SendQuery } from './send-outcomes';

export function createSendAndAwait(
  { confirmWaitMs }: SettlementContext, { submitGroups }: GroupSends, { awaitMinedReceipts }: ReceiptWaits,
  { failure, settledElsewhere }: SendFailures, { blameRefused, nameExpiredMakers }: RefusalChecks,
) {
  /**
   * `sendSettlements` and `awaitReceipts` as one activity (one task through the server instead of
   * two). A retry sends nothing twice: every send after the first asks the chain for the match first.
   */
  async function sendAndAwaitReceipts(q: SendQuery): Promise<{
    sent: Record<string, SendOutcome>; receipts: Record<string, { success: boolean; confirmed: boolean }>;
  }> {
    // A first send goes out many groups per transaction (a chunk of matches costs one signature,
    // one block and one receipt), unchecked; a retry goes one transaction per group, each match run
    // first, so that a match that failed without a reason (out of gas) gets the node's estimate.
    const { outcomes: sent, takerOf, exchange, trades } = await submitGroups(q, { together: q.attempt === 1 });
    const txHashes = [...new Set(Object.values(sent).flatMap((o) => (o.ok ? [o.txHash] : [])))];
    // Waiting on a little for the confirmations (one block on the embedded chain, which mines an
    // empty one every second) takes the common path: no separate MINED write, no confirmation
    // activity, and fewer workflow tasks. Past `confirmWaitMs` the workflow takes the MINED path.
    const mined = txHashes.length > 0 ? await awaitMinedReceipts({ chainId: q.market.chain_id, txHashes }, confirmWaitMs) : {};
    const refusedAt = new Map<string, string>();
    await Promise.all(Object.entries(sent).map(async ([batchId, outcome]) => {
      if (!outcome.ok) return;
      const refused = refusedInside(mined[outcome.txHash], takerOf.get(batchId) ?? '', outcome.txHash);
      if (!refused) return;
      const block = mined[outcome.txHash]?.blockNumber;
      if (block !== undefined) refusedAt.set(batchId, block);
      sent[batchId] = await settledElsewhere(q.market, exchange, takerOf.get(batchId), failure(refused, batchId, q.attempt), batchId, q.attempt);
    }));
    // A refused copy whose match an earlier transaction had settled: that transaction's receipt.
    const found = [...new Set(Object.values(sent).flatMap((o) => (o.ok && !(o.txHash in mined) ? [o.txHash] : [])))];
    if (found.length > 0) Object.assign(mined, await awaitMinedReceipts({ chainId: q.market.chain_id, txHashes: found }, confirmWaitMs));
    await nameExpiredMakers(q.market, sent, trades);
    await blameRefused(q.market, exchange, sent, trades, refusedAt);
    return { sent, receipts: verdictsOf(mined) };
  }

  return { sendAndAwaitReceipts };
}
