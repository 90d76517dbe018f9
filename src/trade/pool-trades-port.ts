import type { TxLog } from './trade-tx-chain';

/**
 * One pool buy or sell found in a saved transaction's logs. Amounts are base units as decimal
 * strings: `collateral` is what paid for (BUY) or came out of (SELL) the shares, without the fee.
 */
export interface PoolTradeOfTx {
  log_index: number;
  condition_id: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  trader: string;
  shares: string;
  collateral: string;
  fee: string;
}

/**
 * Decodes the pool events of a receipt's logs. The AMM venue provides it (its pool ABI and the
 * pools of the service's markets); until then no log is a pool trade.
 */
export type DecodePoolTrades = (logs: readonly TxLog[]) => Promise<PoolTradeOfTx[]> | PoolTradeOfTx[];

export const NO_POOL_TRADES: DecodePoolTrades = () => [];
