/**
 * Pool `Buy`/`Sell` logs as trade records (plain JSON: wei as decimal strings), for the saved
 * transaction workflow and the pool watcher. A record's identity is (chain id, tx hash, log index).
 * `price_ticks` is the pool's own price of the trade, fee excluded, in 0.01 ticks rounded half up
 * and kept within [1, 99] so it fits the order-book trade and ticker records.
 */
import { decodeEventLog, getAddress, type Address, type Hex } from 'viem';
import { ammPoolAbi } from '../chain/generated';

export interface PoolTrade {
  pool: Address;
  wallet: Address;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  /** BUY: collateral paid, fee included; SELL: collateral received, fee excluded. */
  collateral: string;
  shares: string;
  fee: string;
  price_ticks: number;
  tx_hash: Hex;
  log_index: number;
  block_number: string;
}

export interface PoolLog {
  address: Address;
  topics: readonly Hex[] | [Hex, ...Hex[]] | [];
  data: Hex;
  transactionHash: Hex | null;
  logIndex: number | null;
  blockNumber: bigint | null;
}

/** round(100 * collateral / shares), half up, within [1, 99]. */
export function priceTicksOf(collateral: bigint, shares: bigint): number {
  if (shares === 0n) return 50;
  const ticks = Number((collateral * 200n + shares) / (shares * 2n));
  return Math.min(99, Math.max(1, ticks));
}

/** Decodes every pool trade among `logs`; other logs (transfers, funding) are skipped. */
export function decodePoolTrades(logs: readonly PoolLog[], pools?: readonly Address[]): PoolTrade[] {
  const only = pools ? new Set(pools.map((p) => p.toLowerCase())) : undefined;
  const trades: PoolTrade[] = [];
  for (const log of logs) {
    if (only && !only.has(log.address.toLowerCase())) continue;
    let event;
    try {
      event = decodeEventLog({ abi: ammPoolAbi, topics: log.topics as [Hex, ...Hex[]], data: log.data });
    } catch {
      continue;
    }
    if (log.transactionHash === null || log.logIndex === null || log.blockNumber === null) continue;
    const base = { pool: getAddress(log.address), tx_hash: log.transactionHash, log_index: log.logIndex, block_number: log.blockNumber.toString() };
    if (event.eventName === 'Buy') {
      const { buyer, investmentAmount, feeAmount, outcomeIndex, outcomeTokensBought } = event.args;
      trades.push({
        ...base, wallet: buyer, outcome: Number(outcomeIndex) as 0 | 1, side: 'BUY',
        collateral: investmentAmount.toString(), shares: outcomeTokensBought.toString(), fee: feeAmount.toString(),
        price_ticks: priceTicksOf(investmentAmount - feeAmount, outcomeTokensBought),
      });
    } else if (event.eventName === 'Sell') {
      const { seller, returnAmount, feeAmount, outcomeIndex, outcomeTokensSold } = event.args;
      trades.push({
        ...base, wallet: seller, outcome: Number(outcomeIndex) as 0 | 1, side: 'SELL',
        collateral: returnAmount.toString(), shares: outcomeTokensSold.toString(), fee: feeAmount.toString(),
        price_ticks: priceTicksOf(returnAmount + feeAmount, outcomeTokensSold),
      });
    }
  }
  return trades;
}
