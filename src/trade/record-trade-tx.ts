/**
 * The end of a saved transaction: its pool trades become public trades (and the wallet's saved
 * trades, for average prices), its record takes its final status, and the wallet hears of it.
 * Every write is keyed (trade id per log, the record by chain and hash, final only from PENDING),
 * so a retried activity writes nothing twice.
 */
import type { Connection } from 'mongoose';
import type { RealtimeEvent, RealtimePublisher } from '../ports/realtime-publisher';
import {
  createMarketModel, createPublicTradeModel, createSavedTradeModel, createTradeTxModel,
  type MarketRecord, type TradeTxEvent, type TradeTxRecord, type TradeTxStatus,
} from '../db/models';
import { formatCanonical } from '../money';
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

const PRICE_DECIMALS = 6;

export function poolTradeId(chainId: number, txHash: string, logIndex: number): string {
  return `pool:${chainId}:${txHash.toLowerCase()}:${logIndex}`;
}

/** Own-outcome price of a pool trade, and the same in YES terms, as decimal strings. */
function pricesOf(t: PoolTradeOfTx): { own: string; yes: string } {
  const scale = 10n ** BigInt(PRICE_DECIMALS);
  const own = BigInt(t.shares) === 0n ? 0n : (BigInt(t.collateral) * scale) / BigInt(t.shares);
  const yes = t.outcome === 1 ? own : scale - own;
  return { own: formatCanonical(own, PRICE_DECIMALS), yes: formatCanonical(yes, PRICE_DECIMALS) };
}

export function createTradeTxRecorder(db: Connection, publisher: RealtimePublisher, now: () => Date = () => new Date()) {
  const txs = createTradeTxModel(db);
  const markets = createMarketModel(db);
  const trades = createPublicTradeModel(db);
  const saved = createSavedTradeModel(db);

  async function recordPoolTrades(record: TradeTxRecord, poolTrades: PoolTradeOfTx[], at: Date): Promise<{ ids: string[]; events: RealtimeEvent[] }> {
    const ids: string[] = [];
    const events: RealtimeEvent[] = [];
    for (const t of poolTrades) {
      const market = await markets.findOne({ chain_id: record.chain_id, condition_id: t.condition_id.toLowerCase() }).lean<MarketRecord>().exec();
      if (!market) continue;
      const decimals = market.tokens[0]?.decimals ?? 18;
      const tradeId = poolTradeId(record.chain_id, record.tx_hash, t.log_index);
      const prices = pricesOf(t);
      const inserted = await trades.updateOne(
        { trade_id: tradeId },
        { $setOnInsert: { chain_id: record.chain_id, condition_id: market.condition_id, price: prices.yes, size: t.shares, settlement_status: 'CONFIRMED', created_at: at } },
        { upsert: true },
      ).exec();
      if (t.trader.toLowerCase() === record.wallet) {
        await saved.updateOne(
          { trade_id: tradeId },
          { $setOnInsert: {
            chain_id: record.chain_id, condition_id: market.condition_id, wallet: record.wallet, outcome: t.outcome, side: t.side,
            price: prices.own, size: formatCanonical(BigInt(t.shares), decimals), fee: formatCanonical(BigInt(t.fee), decimals), tx_hash: record.tx_hash, created_at: at,
          } },
          { upsert: true },
        ).exec();
      }
      ids.push(tradeId);
      if (inserted.upsertedCount > 0) {
        events.push({
          channel: 'trades', chain_id: record.chain_id, condition_id: market.condition_id,
          payload: { trade_id: tradeId, condition_id: market.condition_id, chain_id: record.chain_id, price: prices.yes, size: formatCanonical(BigInt(t.shares), decimals), created_at: at.toISOString() },
        });
      }
    }
    return { ids, events };
  }

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
      const { ids, events } = await recordPoolTrades(record, end.pool_trades, at);
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
