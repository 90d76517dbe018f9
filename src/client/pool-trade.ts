/**
 * One AMM trade from a viem wallet client: ask the service for the pool call, check it, send the
 * approvals it still needs (each mined before the next step, as the pool call's gas estimate reads
 * them), send the pool call, save it and wait until the service has its receipt.
 */
import { BaseError, publicActions, type Account, type Hex, type WalletClient } from 'viem';
import { checkPoolTx } from './pool-tx-check';
import { PredexError } from './predex-error';
import type { TradeInput, WaitOptions } from './trade-api';
import type { SavedTx, TradeResponse } from './types';

export interface PoolTradeInput extends TradeInput {
  slippage_bps?: number;
}

/** Where a pool trade is: each approval sent, the pool call sent, then each status of its saved record. */
export type PoolTradeProgress =
  | { stage: 'approval'; tx_hash: Hex }
  | { stage: 'sent'; tx_hash: Hex }
  | { stage: 'saved'; saved: SavedTx };

export interface PoolTradeResult {
  trade: TradeResponse;
  approvals: Hex[];
  tx_hash: Hex;
  /** The saved record once it left PENDING: CONFIRMED (a REVERTED or NOT_FOUND one throws). */
  saved: SavedTx;
}

export interface PoolTradeDeps {
  chainId: number;
  /** Used when the input names none. */
  slippageBps: number;
  trade(input: PoolTradeInput & { wallet: string }): Promise<TradeResponse>;
  save(input: { tx_hash: string; wallet: string }): Promise<SavedTx>;
  waitForSaved(txHash: string, options: WaitOptions): Promise<SavedTx>;
  decimals(market: string): Promise<number>;
}

function chainError(what: string, error: unknown): PredexError {
  const message = error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error);
  return new PredexError({ code: 'CHAIN_ERROR', message: `${what}: ${message}` }, { cause: error });
}

async function send(wallet: WalletClient, account: Account, what: string, tx: { to: string; data: string }): Promise<Hex> {
  try {
    return await wallet.sendTransaction({ account, chain: wallet.chain ?? null, to: tx.to as Hex, data: tx.data as Hex });
  } catch (error) {
    throw chainError(`sending the ${what} failed`, error);
  }
}

export async function tradeThroughPool(
  deps: PoolTradeDeps, wallet: WalletClient, input: PoolTradeInput, options: { onProgress?: (p: PoolTradeProgress) => void; timeoutMs?: number } = {},
): Promise<PoolTradeResult> {
  const account = wallet.account;
  if (!account) throw new PredexError({ code: 'CLIENT_INPUT', message: 'the wallet client has no account: create it with one (privateKeyToAccount)' });
  const slippage_bps = input.slippage_bps ?? deps.slippageBps;
  const trade = await deps.trade({ ...input, slippage_bps, wallet: account.address });
  if (trade.kind !== 'AMM') throw new PredexError({ code: 'CLIENT_INPUT', message: `market ${input.market} trades on the order book: place an order instead` });
  const outcome = input.outcome === 'YES' || input.outcome === 1 ? 1 : 0;
  checkPoolTx({ side: input.side, outcome, amount: input.amount, slippage_bps, chain_id: deps.chainId }, trade, await deps.decimals(input.market));

  const reader = wallet.extend(publicActions);
  const approvals: Hex[] = [];
  for (const approval of trade.approvals ?? []) {
    const hash = await send(wallet, account, 'approval', approval);
    approvals.push(hash);
    options.onProgress?.({ stage: 'approval', tx_hash: hash });
    const receipt = await reader.waitForTransactionReceipt({ hash }).catch((error: unknown) => Promise.reject(chainError(`approval ${hash}`, error)));
    if (receipt.status !== 'success') throw new PredexError({ code: 'CHAIN_ERROR', message: `approval ${hash} reverted`, details: { tx_hash: hash } });
  }
  const tx = trade.tx!;
  const hash = await send(wallet, account, 'pool transaction', tx);
  options.onProgress?.({ stage: 'sent', tx_hash: hash });
  await deps.save({ tx_hash: hash, wallet: account.address });
  const saved = await deps.waitForSaved(hash, { timeoutMs: options.timeoutMs, onProgress: (s) => options.onProgress?.({ stage: 'saved', saved: s }) });
  if (saved.status !== 'CONFIRMED') {
    throw new PredexError({ code: 'CHAIN_ERROR', message: `pool transaction ${hash} ended ${saved.status}${saved.status_reason ? ` (${saved.status_reason})` : ''}`, details: { saved } });
  }
  return { trade, approvals, tx_hash: hash, saved };
}
