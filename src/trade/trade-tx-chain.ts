/**
 * What the saved-transaction workflow reads from the chain: a transaction's receipt (pending until
 * mined) and its logs decoded against the conditional tokens' and the exchange's ABIs.
 */
import { decodeEventLog, TransactionReceiptNotFoundError, type Abi, type Address, type Hex, type Log } from 'viem';
import type { ChainPort } from '../chain';
import { chainCall } from '../chain/chain-errors';
import { conditionalTokensAbi, exchangeAbi } from '../chain/generated';
import type { TradeTxEvent } from '../db/models';

export interface TxLog {
  address: string;
  topics: readonly Hex[];
  data: Hex;
  logIndex: number;
}

export type TxReceipt =
  | { status: 'pending' }
  | { status: 'success' | 'reverted'; from: string; blockNumber: bigint; logs: TxLog[] };

export interface TradeTxChain {
  readonly chainId: number;
  receipt(hash: Hex): Promise<TxReceipt>;
  /** The contracts whose events a saved transaction is decoded for. */
  readonly addresses: { conditionalTokens: Address; exchange: Address };
}

export function tradeTxChainOf(port: ChainPort): TradeTxChain {
  return {
    chainId: port.chainId,
    addresses: { conditionalTokens: port.addresses.conditionalTokens, exchange: port.addresses.exchange },
    receipt: (hash) =>
      chainCall('tradeTxReceipt', async () => {
        try {
          const r = await port.context.publicClient.getTransactionReceipt({ hash });
          const logs = r.logs.map((l: Log) => ({ address: l.address, topics: l.topics, data: l.data, logIndex: l.logIndex ?? 0 }));
          return { status: r.status, from: r.from.toLowerCase(), blockNumber: r.blockNumber, logs };
        } catch (error) {
          if (error instanceof TransactionReceiptNotFoundError) return { status: 'pending' };
          throw error;
        }
      }),
  };
}

function stringArgs(args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((args ?? {}) as Record<string, unknown>)) {
    out[k] = Array.isArray(v) ? v.map(String).join(',') : typeof v === 'string' ? v.toLowerCase() : String(v);
  }
  return out;
}

function decodeWith(abi: Abi, contract: TradeTxEvent['contract'], log: TxLog): TradeTxEvent | null {
  try {
    const decoded = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
    const args = stringArgs(decoded.args);
    return { log_index: log.logIndex, contract, name: decoded.eventName ?? 'unknown', condition_id: args.conditionId ?? null, args };
  } catch {
    return null;
  }
}

/** The conditional-token and exchange events of a receipt, in log order; other contracts' logs are left to their own decoders. */
export function decodeTradeTxEvents(chain: Pick<TradeTxChain, 'addresses'>, logs: readonly TxLog[]): TradeTxEvent[] {
  const ctf = chain.addresses.conditionalTokens.toLowerCase();
  const exchange = chain.addresses.exchange.toLowerCase();
  const out: TradeTxEvent[] = [];
  for (const log of logs) {
    const address = log.address.toLowerCase();
    const event = address === ctf ? decodeWith(conditionalTokensAbi as Abi, 'conditional_tokens', log) : address === exchange ? decodeWith(exchangeAbi as Abi, 'exchange', log) : null;
    if (event) out.push(event);
  }
  return out;
}
