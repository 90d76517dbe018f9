/**
 * The market records placement checks orders against (status, ticks, tokens, fee, addresses),
 * kept for `ttlMs` (default 1 s) so that a busy API does not read the `markets` collection once
 * per request. Markets that are not found are not kept (one may be created any moment).
 *
 * Staleness is safe: the market workflow checks the status again when it places an order, so an
 * order accepted within a second of a pause ends CANCELLED with reason MARKET_NOT_ACTIVE instead
 * of being refused inline (docs/orders.md). A status change also drops the market's entry in every
 * API process (`invalidate`, from the `markets` event the worker pushes before the change is
 * answered), so the TTL only bounds a process the push could not reach.
 */
import type { MarketRef } from '../ports/market-matcher';
import type { MarketModel, MarketRecord } from '../db/models/market.model';
import { marketKeyOf } from '../matching/market-ids';

export const MARKET_RECORD_TTL_MS = 1_000;

export class MarketRecordCache {
  private readonly kept = new Map<string, { record: Promise<MarketRecord | undefined>; expiresAt: number }>();

  constructor(
    private readonly markets: MarketModel,
    private readonly ttlMs = MARKET_RECORD_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The record of one market, or undefined when it does not exist. */
  async findOne(market: MarketRef): Promise<MarketRecord | undefined> {
    return this.live(marketKeyOf(market), this.clock()) ?? (await this.find([market])).get(marketKeyOf(market));
  }

  /** The kept read of `key` while its TTL runs, else undefined. */
  private live(key: string, now: number): Promise<MarketRecord | undefined> | undefined {
    const hit = this.kept.get(key);
    return hit && hit.expiresAt > now ? hit.record : undefined;
  }

  /** Forgets a market (its status changed): the next lookup reads the store. */
  invalidate(market: MarketRef): void {
    this.kept.delete(marketKeyOf(market));
  }

  /** The records of `wanted` that exist, by `marketKeyOf`; the ones not kept are read in one query. */
  async find(wanted: MarketRef[]): Promise<Map<string, MarketRecord>> {
    const now = this.clock();
    const missing = new Map<string, MarketRef>();
    const pending: [string, Promise<MarketRecord | undefined>][] = [];
    for (const m of wanted) {
      const key = marketKeyOf(m);
      const record = this.live(key, now);
      if (record) pending.push([key, record]);
      else missing.set(key, { chain_id: m.chain_id, condition_id: m.condition_id.toLowerCase() });
    }
    if (missing.size > 0) {
      const read = this.markets.find({ $or: [...missing.values()] }).lean<MarketRecord[]>().exec();
      for (const key of missing.keys()) {
        const record = read.then((found) => found.find((r) => marketKeyOf(r) === key));
        const entry = { record, expiresAt: now + this.ttlMs };
        this.kept.set(key, entry);
        // Neither a miss nor a failed read is kept.
        const forget = () => {
          if (this.kept.get(key) === entry) this.kept.delete(key);
        };
        record.then((r) => r ?? forget(), forget);
        pending.push([key, record]);
      }
    }
    const out = new Map<string, MarketRecord>();
    for (const [key, record] of pending) {
      const r = await record;
      if (r) out.set(key, r);
    }
    return out;
  }
}
