/**
 * Non-blocking receipt check for a settlement poller: pending until included, then the status and
 * how many blocks confirm it (the including block counts as 0 confirmations, matching
 * CHAIN_CONFIRMATIONS = "blocks on top").
 */
import { decodeEventLog, getAbiItem, toEventSelector, TransactionReceiptNotFoundError, type Hex, type Log } from 'viem';
import { chainCall, revertReasonOf } from './chain-errors';
import type { ChainContext } from './chain-context';
import { exchangeAbi } from './generated';

export type ReceiptState =
  | { status: 'pending' }
  | {
    status: 'success' | 'reverted'; blockNumber: bigint; confirmations: number;
    /** The taker orders whose match the exchange settled in this transaction (`OrdersMatched`), lower case. */
    matchedTakers: Hex[];
    /** The taker orders whose match a `matchOrdersBatch` refused (`MatchFailed`), with the revert reason ('' when none). */
    refusedTakers: RefusedTaker[];
  };

export interface RefusedTaker {
  taker: Hex;
  reason: string;
}

const ORDERS_MATCHED = toEventSelector(getAbiItem({ abi: exchangeAbi, name: 'OrdersMatched' }));
const MATCH_FAILED = toEventSelector(getAbiItem({ abi: exchangeAbi, name: 'MatchFailed' }));

export function getReceiptState(ctx: ChainContext, hash: Hex): Promise<ReceiptState> {
  return chainCall('getReceiptState', async () => {
    try {
      const [receipt, head] = await Promise.all([
        ctx.publicClient.getTransactionReceipt({ hash }),
        ctx.publicClient.getBlockNumber({ cacheTime: 0 }),
      ]);
      // A reverted transaction keeps no logs.
      const logs = receipt.status === 'success' ? receipt.logs : [];
      return {
        status: receipt.status, blockNumber: receipt.blockNumber, confirmations: Number(head - receipt.blockNumber),
        matchedTakers: matchedTakersOf(logs, ctx.config.addresses.exchange),
        refusedTakers: refusedTakersOf(logs, ctx.config.addresses.exchange),
      };
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return { status: 'pending' };
      throw error;
    }
  });
}

type ReceiptLog = Pick<Log, 'address' | 'topics' | 'data'>;

/** The exchange's logs of one event (the taker order hash is each one's first indexed topic). */
function takerLogs(logs: readonly ReceiptLog[], exchange: Hex, selector: Hex): ReceiptLog[] {
  return logs.filter((log) => log.address.toLowerCase() === exchange.toLowerCase() && log.topics[0] === selector && log.topics[1] !== undefined);
}

/** The taker order hashes of the exchange's `OrdersMatched` logs. */
export function matchedTakersOf(logs: readonly ReceiptLog[], exchange: Hex): Hex[] {
  return takerLogs(logs, exchange, ORDERS_MATCHED).map((log) => log.topics[1]!.toLowerCase() as Hex);
}

/** The takers and reasons of the exchange's `MatchFailed` logs. */
export function refusedTakersOf(logs: readonly ReceiptLog[], exchange: Hex): RefusedTaker[] {
  return takerLogs(logs, exchange, MATCH_FAILED).map((log) => {
    const { args } = decodeEventLog({ abi: exchangeAbi, eventName: 'MatchFailed', data: log.data, topics: log.topics as [Hex, ...Hex[]] });
    return { taker: log.topics[1]!.toLowerCase() as Hex, reason: args.reason === '0x' ? '' : revertReasonOf(args.reason) };
  });
}
