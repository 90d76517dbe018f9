import type { mongo } from 'mongoose';
import type { QuerySchema } from '../http/query';
import type { MarketRecord } from '../db/models';
import { AppError } from '../errors';
import { formatCanonical } from '../money';
import { compileSchema } from '../validation/ajv';
import { CANDLE_INTERVALS, candleIdOf, type CandleInterval, type CandleRow } from './candle-math';

export const MAX_CANDLES = 1_000;

export interface CandlesQuery {
  chain_id?: number;
  interval: CandleInterval;
  start?: number;
  end?: number;
}
export const candlesQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['interval'],
  properties: {
    chain_id: { type: 'integer', minimum: 1 },
    interval: { type: 'string', enum: Object.keys(CANDLE_INTERVALS) },
    start: { type: 'integer', minimum: 0, description: 'Unix seconds; default: 999 intervals before end' },
    end: { type: 'integer', minimum: 0, description: 'Unix seconds; default: now' },
  },
} satisfies QuerySchema;
export const validateCandlesQuery = compileSchema<CandlesQuery>(candlesQuerySchema);

/**
 * Candles of the market's settled trades whose interval starts in [start, end], oldest first, at
 * most MAX_CANDLES (a longer range gives its first ones: ask again from the last `t`). Intervals
 * without trades are left out. Read by primary key: every interval start of the range is an id.
 */
export async function readCandles(candles: mongo.Collection<CandleRow>, market: MarketRecord, query: CandlesQuery, now: Date): Promise<{ data: Record<string, unknown>[] }> {
  const step = CANDLE_INTERVALS[query.interval];
  const end = query.end ?? Math.floor(now.getTime() / 1000);
  const start = query.start ?? end - (MAX_CANDLES - 1) * step;
  if (start > end) throw new AppError('VALIDATION_ERROR', 'Invalid query: start is after end');
  const first = Math.ceil(start / step) * step;
  const ids: string[] = [];
  for (let t = first; t <= end && ids.length < MAX_CANDLES; t += step) ids.push(candleIdOf(market.chain_id, market.condition_id, query.interval, t));
  if (ids.length === 0) return { data: [] };
  const rows = await candles.find({ _id: { $in: ids } }).toArray();
  const decimals = market.tokens[0]?.decimals ?? 18;
  const price = (ticks: number) => formatCanonical(BigInt(ticks), 2);
  return {
    data: rows.sort((a, b) => a.t - b.t).map((r) => ({
      t: r.t, open: price(r.open), high: price(r.high), low: price(r.low), close: price(r.close), volume: formatCanonical(BigInt(r.volume_units), decimals),
    })),
  };
}
