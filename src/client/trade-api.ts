/**
 * The /trade routes (quote, then sign): markets of both kinds, quotes, the wallet's transaction or
 * order for a trade, redeem, on-chain positions and saved transactions. Public routes need no
 * credentials; `trade`, `redeem` and `save` need the platform key pair an operator issued.
 */
import type { WalletClient } from 'viem';
import type { HttpTransport } from './http-transport';
import { outcomeOf } from './order-signing';
import { tradeThroughPool, type PoolTradeInput, type PoolTradeProgress, type PoolTradeResult } from './pool-trade';
import { pollUntil } from './poll-until';
import { PredexError } from './predex-error';
import type {
  Outcome, Quote, RedeemResponse, SavedTx, TradeMarketPage, TradeMarketsQuery, TradePositionPage, TradePositionsQuery, TradeResponse,
} from './types';

/** A trade as a trader names it. BUY: `amount` is collateral to spend; SELL: shares to sell. */
export interface TradeInput {
  market: string;
  side: 'BUY' | 'SELL';
  /** 1 = YES, 0 = NO (the names are accepted too). */
  outcome: Outcome | 'YES' | 'NO';
  amount: string;
}

export interface TradeOrderInput extends TradeInput {
  wallet: string;
  /** How far the price may move against the quote before the pool refuses (default 100 = 1%, at most 5000). */
  slippage_bps?: number;
}

export interface WaitOptions {
  timeoutMs?: number;
  everyMs?: number;
  onProgress?: (saved: SavedTx) => void;
}

export const DEFAULT_SLIPPAGE_BPS = 100;

export class TradeApi {
  constructor(
    private readonly http: HttpTransport,
    private readonly chainId: number,
    /** Decimals of a market's tokens (the client's cached market read). */
    private readonly decimalsOf: (market: string) => Promise<number>,
  ) {}

  private body(input: TradeInput) {
    return { chain_id: this.chainId, condition_id: input.market, outcome: outcomeOf(input.outcome), side: input.side, amount: input.amount };
  }

  /** Markets of both kinds (`kind`: amm, clob or all); CLOB items add best bid, ask and last price. */
  markets(query: TradeMarketsQuery = {}): Promise<TradeMarketPage> {
    return this.http.request('GET', '/trade/markets', { tier: 'L0', prefix: '', query: { chain_id: this.chainId, ...query } });
  }

  /** What a trade would get now: from the pool (exact at `block_number`) or by walking the book. */
  quote(input: TradeInput): Promise<Quote> {
    return this.http.request('POST', '/trade/quote', { tier: 'L0', prefix: '', body: this.body(input) });
  }

  /** AMM: the pool transaction and the approvals the wallet still needs; CLOB: an order to sign and post. */
  trade(input: TradeOrderInput): Promise<TradeResponse> {
    const body = { ...this.body(input), wallet: input.wallet, slippage_bps: input.slippage_bps };
    return this.http.request('POST', '/trade', { tier: 'PLATFORM', prefix: '', body: JSON.parse(JSON.stringify(body)) as typeof body });
  }

  /** The conditional tokens' `redeemPositions` call for the wallet's winning balance, and what it pays. */
  redeem(input: { market: string; wallet: string }): Promise<RedeemResponse> {
    return this.http.request('POST', '/trade/redeem', { tier: 'PLATFORM', prefix: '', body: { chain_id: this.chainId, condition_id: input.market, wallet: input.wallet } });
  }

  /** The wallet's outcome-token balances on chain, however it got them. */
  positions(wallet: string, query: Omit<TradePositionsQuery, 'wallet'> = {}): Promise<TradePositionPage> {
    return this.http.request('GET', '/trade/positions', { tier: 'L0', prefix: '', query: { chain_id: this.chainId, ...query, wallet } });
  }

  /** Hands a sent transaction to the service, which follows it to its receipt and records its trades. */
  save(input: { tx_hash: string; wallet: string }): Promise<SavedTx> {
    return this.http.request('POST', '/trade/save', { tier: 'PLATFORM', prefix: '', body: { chain_id: this.chainId, ...input } });
  }

  /** A saved transaction as it stands. */
  saved(txHash: string): Promise<SavedTx> {
    return this.http.request('GET', `/trade/save/${txHash}`, { tier: 'L0', prefix: '', query: { chain_id: this.chainId } });
  }

  /** Polls a saved transaction until it leaves PENDING (CONFIRMED, REVERTED or NOT_FOUND). */
  async waitForSaved(txHash: string, options: WaitOptions = {}): Promise<SavedTx> {
    const timeoutMs = options.timeoutMs ?? 120_000;
    return pollUntil(() => this.saved(txHash), {
      done: (saved) => saved.status !== 'PENDING', timeoutMs, everyMs: options.everyMs, onProgress: options.onProgress,
      late: () => new PredexError({ code: 'TIMEOUT', message: `transaction ${txHash} is still PENDING after ${timeoutMs} ms`, details: { tx_hash: txHash } }),
    });
  }

  /**
   * Buys from or sells to an AMM market's pool with the wallet: checks the transaction the service
   * built, sends the approvals it needs and the pool call, saves it and waits until it is CONFIRMED.
   * `onProgress` names each step (for a progress line); a transaction the chain refuses throws
   * CHAIN_ERROR.
   */
  throughPool(wallet: WalletClient, input: PoolTradeInput, options: { onProgress?: (p: PoolTradeProgress) => void; timeoutMs?: number } = {}): Promise<PoolTradeResult> {
    return tradeThroughPool({
      chainId: this.chainId, slippageBps: DEFAULT_SLIPPAGE_BPS, decimals: this.decimalsOf,
      trade: (i) => this.trade(i), save: (i) => this.save(i), waitForSaved: (h, o) => this.waitForSaved(h, o),
    }, wallet, input, options);
  }
}
