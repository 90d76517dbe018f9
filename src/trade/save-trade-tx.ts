/**
 * POST /trade/save: one record per (chain, transaction), created PENDING, and its workflow. The
 * same hash saved again returns the record as it stands; another wallet for it is a conflict. A
 * record whose workflow could not be started is taken back, so a failed save leaves nothing.
 */
import { AppError } from '../errors';
import type { TradeTxModel, TradeTxRecord } from '../db/models';
import type { TradeTxStarter } from '../temporal/trade-tx.client';
import { presentTradeTx } from './present-trade-tx';
import type { SaveBody } from './trade.schemas';

export interface SaveDeps {
  txs: TradeTxModel;
  starter: TradeTxStarter;
  now?: () => Date;
}

export async function saveTradeTx(deps: SaveDeps, body: SaveBody): Promise<Record<string, unknown>> {
  const key = { chain_id: body.chain_id, tx_hash: body.tx_hash.toLowerCase() };
  const wallet = body.wallet.toLowerCase();
  const at = (deps.now ?? (() => new Date()))();
  // The key fields come from the filter on insert.
  const fresh: Omit<TradeTxRecord, 'chain_id' | 'tx_hash'> = {
    wallet, status: 'PENDING', status_reason: null, block_number: null, condition_ids: [], events: [], trade_ids: [], created_at: at, updated_at: at,
  };
  const written = await deps.txs.updateOne(key, { $setOnInsert: fresh }, { upsert: true }).exec();
  const record = await deps.txs.findOne(key).lean<TradeTxRecord>().exec();
  if (!record) throw new AppError('SERVICE_DEGRADED', 'The saved transaction could not be read back');
  if (record.wallet !== wallet) throw new AppError('IDEMPOTENCY_CONFLICT', 'This transaction is already saved for another wallet');
  if (record.status === 'PENDING') {
    try {
      await deps.starter.start({ ...key, wallet });
    } catch (error) {
      if (written.upsertedCount > 0) await deps.txs.deleteOne({ ...key, status: 'PENDING' }).exec();
      throw new AppError('SERVICE_DEGRADED', 'The transaction could not be saved; try again', undefined, { cause: error });
    }
  }
  return presentTradeTx(record);
}

export async function readTradeTx(txs: TradeTxModel, chainId: number, txHash: string): Promise<Record<string, unknown>> {
  const record = await txs.findOne({ chain_id: chainId, tx_hash: txHash.toLowerCase() }).lean<TradeTxRecord>().exec();
  if (!record) throw new AppError('NOT_FOUND', 'No saved transaction with this hash');
  return presentTradeTx(record);
}
