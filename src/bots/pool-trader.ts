/**
 * A demo bot that trades an OPEN AMM market's pool now and then, through the public client and
 * a viem wallet client, so the pool's price, trades and ticker move. One trade per step at most;
 * a failed step is logged and the next one tries again.
 */
import { formatUnits, parseUnits, type WalletClient } from 'viem';
import type { PoolTradeResult, PredexClient } from '../client';
import { decidePoolTrade, type PoolLimits } from './pool-decision';
import { StepLoop } from './step-loop';

export interface PoolTraderOptions {
  /** The AMM market to trade, or how to find it (asked each step); by default the first OPEN one. */
  market?: string | (() => Promise<string | undefined>);
  /** Most collateral one buy spends, and what a buy never touches (decimal strings). */
  maxSpend?: string;
  reserve?: string;
  /** Mean wait between steps; each wait is 0.5 to 1.5 of it. */
  stepMs?: number;
  random?: () => number;
  log?: (line: string) => void;
}

const DECIMALS = 18;

export class PoolTrader {
  private readonly loop = new StepLoop(
    () => this.step(),
    () => (this.options.stepMs ?? 15_000) * (0.5 + this.random()),
    (e) => this.options.log?.(`pool bot: step failed (${e}); trying again later`),
  );
  private idleLogged = false;
  trades = 0;

  constructor(private readonly client: PredexClient, private readonly wallet: WalletClient, private readonly options: PoolTraderOptions = {}) {}

  private get random(): () => number {
    return this.options.random ?? Math.random;
  }

  private async market(): Promise<string | undefined> {
    const { market } = this.options;
    if (typeof market === 'function') return market();
    if (market) return market;
    return (await this.client.trade.markets({ kind: 'amm', status: 'open', limit: 1 })).data[0]?.condition_id;
  }

  /** One step: read the wallet, decide, and trade through the pool if there is something to do. */
  async step(): Promise<PoolTradeResult | null> {
    const market = await this.market();
    if (!market) {
      if (!this.idleLogged) this.options.log?.('pool bot: no OPEN AMM market yet; waiting');
      this.idleLogged = true;
      return null;
    }
    this.idleLogged = false;
    const address = this.wallet.account!.address;
    const [balances, positions] = await Promise.all([this.client.balances.get(), this.client.trade.positions(address)]);
    const shares: [bigint, bigint] = [0n, 0n];
    for (const p of positions.data) if (p.condition_id === market) shares[p.outcome] = parseUnits(p.size, DECIMALS);
    const limits: PoolLimits = {
      maxSpend: parseUnits(this.options.maxSpend ?? '5', DECIMALS), reserve: parseUnits(this.options.reserve ?? '100', DECIMALS), minAmount: 10n ** 16n,
    };
    const decision = decidePoolTrade({ collateral: parseUnits(balances.collateral?.available ?? '0', DECIMALS), shares }, limits, this.random);
    if (!decision) return null;
    const amount = formatUnits(decision.amount, DECIMALS);
    const result = await this.client.trade.throughPool(this.wallet, { market, side: decision.side, outcome: decision.outcome, amount, slippage_bps: 200 });
    this.trades += 1;
    const what = decision.side === 'BUY' ? `bought ${decision.outcome === 1 ? 'YES' : 'NO'} for ${amount}` : `sold ${amount} ${decision.outcome === 1 ? 'YES' : 'NO'}`;
    this.options.log?.(`pool bot: ${what} (average ${result.trade.quote.average_price}), tx ${result.tx_hash}`);
    return result;
  }

  /** Steps until stopped; an error is logged and the next step tries again. */
  run(): Promise<void> {
    return this.loop.run();
  }

  stop(): void {
    this.loop.stop();
  }
}
