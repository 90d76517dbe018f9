import type { Connection } from 'mongoose';
import type { Hex } from 'viem';
import { createMarketModel } from '../db/models/market.model';
import type { DecodePoolTrades, PoolTradeOfTx } from '../trade/pool-trades-port';
import { decodePoolTrades, type PoolTrade } from './pool-events';

/**
 * A saved transaction's pool trades, for the trade-tx workflow. Only logs of this service's own
 * pools count (anyone can deploy a contract emitting the same events), each named by its market.
 */
export function poolTradesOfTx(db: Connection, chainId: number): DecodePoolTrades {
  const markets = createMarketModel(db);
  return async (logs) => {
    const addresses = [...new Set(logs.map((log) => log.address.toLowerCase()))];
    if (addresses.length === 0) return [];
    const known = await markets
      .find({ chain_id: chainId, 'amm.pool_address': { $in: addresses } }, { condition_id: 1, amm: 1 })
      .lean()
      .exec();
    const marketOf = new Map(known.map((m) => [String(m.amm?.pool_address).toLowerCase(), m.condition_id]));
    // The receipt's logs carry no hash or block of their own; the record is keyed by log index.
    const poolLogs = logs.map((log) => ({
      address: log.address as Hex, topics: log.topics, data: log.data, transactionHash: '0x' as Hex, logIndex: log.logIndex, blockNumber: 0n,
    }));
    return decodePoolTrades(poolLogs, [...marketOf.keys()] as Hex[]).map((t) => poolTradeOf(t, marketOf.get(t.pool.toLowerCase()) as string));
  };
}

/** A decoded pool log as the recorders take it, named by its market. */
export function poolTradeOf(t: PoolTrade, conditionId: string): PoolTradeOfTx {
  return {
    log_index: t.log_index,
    condition_id: conditionId,
    outcome: t.outcome,
    side: t.side,
    trader: t.wallet,
    shares: t.shares,
    // The port's collateral excludes the fee; a pool BUY's investment includes it.
    collateral: (t.side === 'BUY' ? BigInt(t.collateral) - BigInt(t.fee) : BigInt(t.collateral)).toString(),
    fee: t.fee,
  };
}
