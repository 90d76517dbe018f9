/**
 * A settlement batch lists every order and wallet it settles in its `OrderHashes` and `Wallets`
 * search attributes: an operator finds the batch in the Temporal UI by any maker or taker of it,
 * not only by its first taker (`OrderHash`).
 */
import { log, patched, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { SettlementPartyActivities } from '../activities/settlement-parties.activities';
import { SETTLEMENT_LISTS_PARTIES } from './patches';


const ORDER_HASHES = defineSearchAttributeKey('OrderHashes', SearchAttributeType.KEYWORD_LIST);
const WALLETS = defineSearchAttributeKey('Wallets', SearchAttributeType.KEYWORD_LIST);

// A few quick tries: being found by every order is worth a read, not a settlement held up.
const parties = proxyLocalActivities<SettlementPartyActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** Sets the batch's `OrderHashes` and `Wallets`; a read that keeps failing leaves them unset (logged). */
export async function listSettlementParties(tradeIds: string[]): Promise<void> {
  if (tradeIds.length === 0 || !patched(SETTLEMENT_LISTS_PARTIES)) return;
  try {
    const { orderHashes, wallets, leftOff } = await parties.settlementPartiesOf({ tradeIds });
    if (orderHashes.length === 0) return;
    upsertSearchAttributes([{ key: ORDER_HASHES, value: orderHashes }, { key: WALLETS, value: wallets }]);
    if (leftOff > 0) log.warn('settlement batch lists only the orders and wallets that fit a search attribute', { leftOff });
  } catch (error) {
    log.warn('settlement batch could not list its orders and wallets', { error: error instanceof Error ? error.message : String(error) });
  }
}
