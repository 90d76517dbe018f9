/**
 * Pool trades into public trades, the ticker and the market channels: the one writer behind both
 * the saved-transaction workflow and the pool watcher. A trade's row is keyed by its public id
 * `pool:{chain_id}:{tx_hash}:{log_index}` (unique index), so whichever path sees a log first writes
 * it and the other finds it written; only a first write publishes its print. The trader's own copy
 * (saved trades, for average prices in positions) is keyed the same way.
 */
import type { Connection } from 'mongoose';
import type { RealtimeEvent } from '../ports/realtime-publisher';
import { createMarketModel, createPublicTradeModel, createSavedTradeModel, createTickerModel, type MarketRecord } from '../db/models';
import { presentTicker } from '../presenters/present-ticker';
import { formatCanonical } from '../money';
import type { PoolTradeOfTx } from '../trade/pool-trades-port';
import { priceTicksOf } from './pool-events';

/** A pool trade with where it was mined. */
export interface MinedPoolTrade extends PoolTradeOfTx {
  tx_hash: string;
  /** Decimal block number. */
  block_number: string;
}


const PRICE_DECIMALS = 6;
/** Orders a market's pool trades for its ticker: a later log never loses to an earlier one. */
const LOGS_PER_BLOCK = 1_000_000;

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

const isDuplicateKey = (error: unknown) => (error as { code?: number })?.code === 11000;

export function createPoolTradeRecorder(db: Connection) {
  const markets = createMarketModel(db);
  const trades = createPublicTradeModel(db);
  const tickers = createTickerModel(db);
  const saved = createSavedTradeModel(db);

  /** The ticker's last price, unless a later pool trade of the market set it already. */
  async function moveTicker(market: MarketRecord, t: MinedPoolTrade, at: Date): Promise<RealtimeEvent | null> {
    const own = priceTicksOf(BigInt(t.collateral), BigInt(t.shares));
    const yesTicks = t.outcome === 1 ? own : 100 - own;
    const seq = Number(t.block_number) * LOGS_PER_BLOCK + t.log_index;
    const key = { chain_id: market.chain_id, condition_id: market.condition_id };
    try {
      // The driver's collection: `pool_seq` is this writer's guard, not a field of the ticker's schema.
      const moved = await tickers.collection.updateOne(
        { ...key, $or: [{ pool_seq: { $lt: seq } }, { pool_seq: { $exists: false } }] },
        { $set: { last_price: formatCanonical(BigInt(yesTicks), 2), pool_seq: seq, updated_at: at } },
        { upsert: true },
      );
      if (moved.matchedCount + moved.upsertedCount === 0) return null;
    } catch (error) {
      // The upsert met the row a later trade wrote first.
      if (isDuplicateKey(error)) return null;
      throw error;
    }
    return { channel: 'ticker', ...key, payload: presentTicker(market, { bestBid: null, bestAsk: null, lastPrice: yesTicks }, at.getTime()) };
  }

  /**
   * Writes the trades not written yet and answers every trade's id (in input order) with the events
   * of the first writes: one `trades` print each, and the ticker when it moved.
   */
  async function record(chainId: number, list: readonly MinedPoolTrade[], at: Date): Promise<{ ids: string[]; events: RealtimeEvent[] }> {
    const ids: string[] = [];
    const events: RealtimeEvent[] = [];
    const newest = new Map<string, { market: MarketRecord; trade: MinedPoolTrade }>();
    const marketOf = new Map<string, MarketRecord | null>();
    for (const t of list) {
      const conditionId = t.condition_id.toLowerCase();
      if (!marketOf.has(conditionId)) marketOf.set(conditionId, await markets.findOne({ chain_id: chainId, condition_id: conditionId }).lean<MarketRecord>().exec());
      const market = marketOf.get(conditionId);
      if (!market) continue;
      const decimals = market.tokens[0]?.decimals ?? 18;
      const tradeId = poolTradeId(chainId, t.tx_hash, t.log_index);
      const prices = pricesOf(t);
      const inserted = await trades.updateOne(
        { trade_id: tradeId },
        { $setOnInsert: { chain_id: chainId, condition_id: market.condition_id, price: prices.yes, size: t.shares, settlement_status: 'CONFIRMED', created_at: at } },
        { upsert: true },
      ).exec();
      const wallet = t.trader.toLowerCase();
      await saved.updateOne(
        { trade_id: tradeId },
        { $setOnInsert: {
          chain_id: chainId, condition_id: market.condition_id, wallet, outcome: t.outcome, side: t.side, price: prices.own,
          size: formatCanonical(BigInt(t.shares), decimals), fee: formatCanonical(BigInt(t.fee), decimals), tx_hash: t.tx_hash.toLowerCase(), created_at: at,
        } },
        { upsert: true },
      ).exec();
      ids.push(tradeId);
      if (inserted.upsertedCount === 0) continue;
      events.push({
        channel: 'trades', chain_id: chainId, condition_id: market.condition_id,
        payload: { trade_id: tradeId, condition_id: market.condition_id, chain_id: chainId, price: prices.yes, size: formatCanonical(BigInt(t.shares), decimals), created_at: at.toISOString() },
      });
      newest.set(market.condition_id, { market, trade: t });
    }
    for (const { market, trade } of newest.values()) {
      const ticker = await moveTicker(market, trade, at);
      if (ticker) events.push(ticker);
    }
    return { ids, events };
  }

  return { record };
}

export type PoolTradeRecorder = ReturnType<typeof createPoolTradeRecorder>;
