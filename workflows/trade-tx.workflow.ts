/**
 * One saved transaction (`trade-tx-{chain_id}-{tx_hash}`, POST /trade/save): waits for its receipt
 * on durable timers (every 1 s, backing off to 30 s, for at most 30 minutes), checks that the wallet
 * sent it, decodes what it did and ends the record CONFIRMED, REVERTED or NOT_FOUND. Each status
 * reaches the wallet's `user` channel.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { proxyActivities, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { TradeTxActivities } from '../activities/trade-tx.activities';
import { CHAIN_CALL, DB_STEP } from './activity-presets';

const chain = proxyActivities<TradeTxActivities>(CHAIN_CALL);
const db = proxyActivities<TradeTxActivities>(DB_STEP);
const MARKET_ID = defineSearchAttributeKey('MarketId', SearchAttributeType.KEYWORD);

export const TRADE_TX_RECEIPT_WAIT_MS = 30 * 60_000;
const FIRST_POLL_MS = 1_000;
const LONGEST_POLL_MS = 30_000;

export interface TradeTxInput {
  chain_id: number;
  /** Lower case. */
  tx_hash: string;
  /** Lower case: the sender the transaction must have. */
  wallet: string;
  /** Tests shorten the wait. */
  receiptWaitMs?: number;
}

export type TradeTxOutcome = 'CONFIRMED' | 'REVERTED' | 'NOT_FOUND';

export async function tradeTxWorkflow(input: TradeTxInput): Promise<TradeTxOutcome> {
  const ref = { chain_id: input.chain_id, tx_hash: input.tx_hash };
  const end = (status: TradeTxOutcome, reason: string | null, blockNumber: string | null, extra: Partial<Parameters<TradeTxActivities['finishTradeTx']>[0]> = {}) =>
    db.finishTradeTx({ ...ref, status, status_reason: reason, block_number: blockNumber, events: [], pool_trades: [], ...extra });
  await db.announceTradeTx(ref);
  const deadline = Date.now() + (input.receiptWaitMs ?? TRADE_TX_RECEIPT_WAIT_MS);
  let wait = FIRST_POLL_MS;
  for (;;) {
    // A node that does not answer for a while is waited out like a receipt not yet mined.
    const receipt = await chain.tradeTxReceipt(ref).catch(() => ({ status: 'pending' as const }));
    if (receipt.status !== 'pending') {
      if (receipt.from !== input.wallet) {
        await end('NOT_FOUND', 'SENDER_MISMATCH', receipt.block_number);
        return 'NOT_FOUND';
      }
      if (receipt.status === 'reverted') {
        await end('REVERTED', null, receipt.block_number);
        return 'REVERTED';
      }
      const events = await chain.tradeTxEvents(ref);
      const poolTrades = await chain.tradeTxPoolTrades(ref);
      const { condition_ids } = await end('CONFIRMED', null, receipt.block_number, { events, pool_trades: poolTrades });
      if (condition_ids.length > 0) upsertSearchAttributes([{ key: MARKET_ID, value: `${input.chain_id}-${condition_ids[0]}` }]);
      return 'CONFIRMED';
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await sleep(Math.min(wait, left));
    wait = Math.min(wait * 2, LONGEST_POLL_MS);
  }
  await end('NOT_FOUND', 'RECEIPT_TIMEOUT', null);
  return 'NOT_FOUND';
}
