/**
 * The end of a saved transaction: its pool trades become public trades (and their traders' saved
 * trades, for average prices; src/amm/pool-trade-recorder.ts), its record takes its final status, and the wallet hears of it.
 * Every write is keyed (trade id per log, the record by chain and hash, final only from PENDING),
 * so a retried activity writes nothing twice.
 */
import type { Connection } from 'mongoose';
import type { RealtimePublisher } from '../ports/realtime-publisher';
import { createPoolTradeRecorder } from '../amm/pool-trade-recorder';
import { createTradeTxModel, type TradeTxEvent, type TradeTxRecord, type TradeTxStatus } from '../db/models';
import type { PoolTradeOfTx } from './pool-trades-port';
import { presentTradeTx } from './present-trade-tx';

export interface TradeTxEnd {
  chain_id: number;
  tx_hash: string;
  status: Exclude<TradeTxStatus, 'PENDING'>;
  status_reason: string | null;
  block_number: string | null;
  events: TradeTxEvent[];
  pool_trades: PoolTradeOfTx[];
}

export function createTradeTxRecorder(db: Connection, publisher: RealtimePublisher, now: () => Date = () => new Date()) {
  const txs = createTradeTxModel(db);
  const pool = createPoolTradeRecorder(db);

  /** Publishes the record as it stands (PENDING at the start of its workflow). */
  async function announce(chainId: number, txHash: string): Promise<void> {
    const record = await txs.findOne({ chain_id: chainId, tx_hash: txHash }).lean<TradeTxRecord>().exec();
    if (record) await publisher.publish([{ channel: 'user', wallet: record.wallet, payload: { type: 'trade_tx', trade_tx: presentTradeTx(record) } }]);
  }

  async function finish(end: TradeTxEnd): Promise<{ condition_ids: string[] }> {
    const key = { chain_id: end.chain_id, tx_hash: end.tx_hash };
    const record = await txs.findOne(key).lean<TradeTxRecord>().exec();
    if (!record) throw new Error(`saved transaction ${end.chain_id}:${end.tx_hash} has no record`);
    if (record.status === 'PENDING') {
      const at = now();
      const mined = end.pool_trades.map((t) => ({ ...t, tx_hash: record.tx_hash, block_number: end.block_number ?? '0' }));
      const { ids, events } = await pool.record(record.chain_id, mined, at);
      const conditionIds = [...new Set([...end.events.map((e) => e.condition_id), ...end.pool_trades.map((t) => t.condition_id.toLowerCase())].filter((c): c is string => !!c))];
      await txs.updateOne({ ...key, status: 'PENDING' }, {
        $set: { status: end.status, status_reason: end.status_reason, block_number: end.block_number, events: end.events, condition_ids: conditionIds, trade_ids: ids, updated_at: at },
      }).exec();
      if (events.length) await publisher.publish(events);
    }
    const final = await txs.findOne(key).lean<TradeTxRecord>().exec();
    await publisher.publish([{ channel: 'user', wallet: final!.wallet, payload: { type: 'trade_tx', trade_tx: presentTradeTx(final!) } }]);
    return { condition_ids: final!.condition_ids ?? [] };
  }

  return { announce, finish };
}
