/**
 * A small demo market maker on the public client: it keeps one bid and one ask (in YES terms)
 * around a fair price that drifts a tick at a time, and now and then takes the best opposite
 * quote, so a book shows depth, trades and settlements. The ask is a BUY of NO at 1 - price, so
 * the bot needs only collateral, never tokens.
 */
import type { PredexClient } from '../client';
import { StepLoop } from './step-loop';

export interface MarketMakerOptions {
  market: string;
  /** Start of the fair YES price, in ticks (1 tick = 0.01). */
  fairTicks?: number;
  /** Ticks between the bid and the ask. */
  spreadTicks?: number;
  /** Shares per quote. */
  size?: string;
  /** Chance per step of taking the best opposite quote. */
  crossChance?: number;
  stepMs?: number;
  random?: () => number;
  log?: (line: string) => void;
}

const LOW = 5;
const HIGH = 95;
const price = (ticks: number) => (ticks === 100 ? '1' : `0.${String(ticks).padStart(2, '0')}`);

export class MarketMaker {
  private fair: number;
  private readonly loop = new StepLoop(() => this.step(), () => this.options.stepMs ?? 2_000, (e) => this.options.log?.(`step failed (${e}); retrying`));
  steps = 0;
  crosses = 0;

  constructor(private readonly client: PredexClient, private readonly options: MarketMakerOptions) {
    this.fair = options.fairTicks ?? 50;
  }

  private get random(): () => number {
    return this.options.random ?? Math.random;
  }

  /** One step: drift, requote both sides, maybe cross. */
  async step(): Promise<void> {
    const { market, spreadTicks = 4, size = '5', crossChance = 0.2 } = this.options;
    this.fair = Math.min(HIGH, Math.max(LOW, this.fair + Math.floor(this.random() * 3) - 1));
    const half = Math.ceil(spreadTicks / 2);
    await this.client.orders.cancel({ market });
    const bid = Math.max(1, this.fair - half);
    const ask = Math.min(99, this.fair + half);
    await this.client.orders.placeMany([
      { market, side: 'BUY', outcome: 'YES', price: price(bid), size, post_only: true },
      { market, side: 'BUY', outcome: 'NO', price: price(100 - ask), size, post_only: true },
    ]);
    if (this.random() < crossChance) await this.cross(market);
    this.steps += 1;
  }

  /** Takes one share-lot of the best quote on a random side, as a fill-and-kill MARKET order. */
  private async cross(market: string): Promise<void> {
    const book = await this.client.markets.book(market, 1);
    const buyYes = this.random() < 0.5;
    const level = buyYes ? book.asks[0] : book.bids[0];
    if (!level) return;
    const size = Number(level.remainingSize) < 1 ? level.remainingSize : '1';
    const yes = Math.round(Number(level.price) * 100);
    // Taking a bid at YES p: BUY NO at 1 - p (a mint with the bidder), so no tokens are needed.
    await this.client.orders.placeMany([{ market, side: 'BUY', outcome: buyYes ? 'YES' : 'NO', price: price(buyYes ? yes : 100 - yes), size, type: 'MARKET' }]);
    this.crosses += 1;
    this.options.log?.(`crossed: ${buyYes ? 'bought' : 'sold'} ${size} YES at ${level.price}`);
  }

  /** Steps until stopped; an error is logged and the next step tries again. */
  run(): Promise<void> {
    return this.loop.run();
  }

  /** Stops after the step under way and cancels the bot's quotes. */
  async stop(): Promise<void> {
    this.loop.stop();
    await this.client.orders.cancel({ market: this.options.market }).catch(() => undefined);
  }
}
