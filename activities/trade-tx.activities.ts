/**
 * Activities of the saved-transaction workflow (workflows/trade-tx.workflow.ts). Each reads the
 * receipt again rather than passing its logs through the workflow's history: receipts are final
 * once mined, and the history stays a few events per poll.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Connection } from 'mongoose';
import type { Hex } from 'viem';
import type { RealtimePublisher } from '../src/ports/realtime-publisher';
import type { TradeTxEvent } from '../src/db/models';
import { NO_POOL_TRADES, type DecodePoolTrades, type PoolTradeOfTx } from '../src/trade/pool-trades-port';
import { createTradeTxRecorder, type TradeTxEnd } from '../src/trade/record-trade-tx';
import { decodeTradeTxEvents, type TradeTxChain, type TxLog } from '../src/trade/trade-tx-chain';

export interface TradeTxRef {
  chain_id: number;
  tx_hash: string;
}

export type TradeTxReceiptView = { status: 'pending' } | { status: 'success' | 'reverted'; from: string; block_number: string };

export interface TradeTxActivityDeps {
  db: Connection;
  publisher: RealtimePublisher;
  chain: () => TradeTxChain;
  /** The pool-event decoder (the AMM venue's); none: no pool trades. */
  decodePoolTrades?: DecodePoolTrades;
}

export function createTradeTxActivities(deps: TradeTxActivityDeps) {
  const recorder = createTradeTxRecorder(deps.db, deps.publisher);
  const decodePool = deps.decodePoolTrades ?? NO_POOL_TRADES;

  async function minedLogs(ref: TradeTxRef): Promise<TxLog[]> {
    const chain = deps.chain();
    if (chain.chainId !== ref.chain_id) throw ApplicationFailure.nonRetryable(`no chain ${ref.chain_id} here`, 'NOT_FOUND');
    const receipt = await chain.receipt(ref.tx_hash as Hex);
    if (receipt.status === 'pending') throw ApplicationFailure.retryable('receipt not found any more', 'SERVICE_DEGRADED');
    return receipt.logs;
  }

  return {
    async announceTradeTx(ref: TradeTxRef): Promise<void> {
      await recorder.announce(ref.chain_id, ref.tx_hash);
    },
    async tradeTxReceipt(ref: TradeTxRef): Promise<TradeTxReceiptView> {
      const chain = deps.chain();
      if (chain.chainId !== ref.chain_id) throw ApplicationFailure.nonRetryable(`no chain ${ref.chain_id} here`, 'NOT_FOUND');
      const r = await chain.receipt(ref.tx_hash as Hex);
      return r.status === 'pending' ? r : { status: r.status, from: r.from, block_number: r.blockNumber.toString() };
    },
    async tradeTxEvents(ref: TradeTxRef): Promise<TradeTxEvent[]> {
      return decodeTradeTxEvents(deps.chain(), await minedLogs(ref));
    },
    /** The step where pool events become trades: the AMM venue's `decodePoolTrades` plugs in here. */
    async tradeTxPoolTrades(ref: TradeTxRef): Promise<PoolTradeOfTx[]> {
      return decodePool(await minedLogs(ref));
    },
    async finishTradeTx(end: TradeTxEnd): Promise<{ condition_ids: string[] }> {
      return recorder.finish(end);
    },
  };
}

export type TradeTxActivities = ReturnType<typeof createTradeTxActivities>;
