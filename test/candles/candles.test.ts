import { candlesOf, applyTrades } from '../../src/candles/candle-store';
import { confirmedTradesOf } from '../../src/candles/confirmed-trades';
import type { CandleTrade } from '../../src/candles/candle-math';
import { readCandles } from '../../src/candles/read-candles';
import { createMarket } from '../../src/markets/create-market';
import { createChainRegistry } from '../../src/markets/chains';
import type { FillRecord } from '../../src/matching/collections';
import type { MarketRecord } from '../../src/db/models';
import { useTestDatabase } from '../helpers/test-database';
import { call, type Harness, startHarness, TEST_CHAIN } from '../api/app-harness';
import { createTestConditionPreparer } from '../api/test-condition-preparer';
import type { mongo } from 'mongoose';

const SHARE = 10n ** 18n;
/** 2026-01-01T00:00:00Z: a day, hour and minute boundary. */
const DAY = Date.parse('2026-01-01T00:00:00.000Z');
const T0 = DAY / 1000;

/** A confirmed taker fill as settlement stores it; `trade_price` is the trade's YES price. */
function takerFill(n: number, atMs: number, yesPrice: string, shares: bigint, conditionId: string, outcome: 0 | 1 = 1): FillRecord {
  const own = outcome === 1 ? yesPrice : (1 - Number(yesPrice)).toFixed(2);
  return {
    _id: `m:${n}:t`, trade_id: `m:${n}`, order_hash: `0x${n}`, wallet: '0xw', chain_id: 56, condition_id: conditionId, market_key: `56-${conditionId}`,
    role: 'taker', side: 'BUY', outcome, price: own, size: String(shares), fee: '0', size_units: (shares * SHARE).toString(), fee_units: '0',
    collateral_units: '0', kind: 'TRANSFER', settlement_status: 'CONFIRMED', tx_hash: '0x', counter_order_hash: '0x', trade_price: yesPrice,
    created_at: new Date(atMs), updated_at: new Date(atMs),
  };
}

describe('candles of settled trades', () => {
  const database = useTestDatabase('candles');
  let harness: Harness;
  let market: MarketRecord;
  const candles = () => candlesOf(database.db().db as mongo.Db);

  beforeAll(async () => {
    harness = await startHarness(database.db());
    const created = await createMarket(
      { store: harness.modules.store, chains: createChainRegistry([TEST_CHAIN]), preparerFor: () => createTestConditionPreparer(), now: () => new Date(DAY) },
      { question: 'Candles?', end_date: '2027-01-01T00:00:00.000Z', summary: { en: 'c' }, rules: { en: 'r' } },
    );
    market = (await harness.modules.store.markets.findOne({ condition_id: created.condition_id }).lean<MarketRecord>())!;
  });
  afterAll(async () => harness.close());

  test('when trades across minute, hour and day boundaries settle out of order, some on the NO side, then each interval has the hand-computed candle', async () => {
    const c = market.condition_id;
    // Match order (n) and time; YES price; shares. #2 is a BUY NO at 0.30 (YES 0.70); #5 a NO taker at 0.55 (YES 0.45).
    const fills = [
      takerFill(1, DAY - 1_000, '0.5', 2n, c), //                23:59:59 the day before
      takerFill(2, DAY, '0.7', 1n, c, 0), //                      00:00:00
      takerFill(3, DAY + 30_000, '0.4', 3n, c), //                00:00:30
      takerFill(4, DAY + 30_000, '0.6', 1n, c), //                00:00:30, after #3 in match order
      takerFill(5, DAY + 61_000, '0.45', 4n, c, 0), //            00:01:01
      takerFill(6, DAY + 3_600_000 + 5_000, '0.52', 10n, c), //   01:00:05
    ];
    // Settled out of match order, in three writes, one of them twice (a retried write).
    const trades = confirmedTradesOf(fills);
    const byN = (n: number) => trades[n - 1];
    await applyTrades(candles(), [byN(4), byN(6)]);
    await applyTrades(candles(), [byN(5), byN(2), byN(1)]);
    await applyTrades(candles(), [byN(3), byN(4)]);
    await applyTrades(candles(), [byN(3), byN(4)]);

    const read = async (interval: '1m' | '5m' | '1h' | '1d', start: number, end: number) =>
      (await readCandles(candles(), market, { interval, start, end }, new Date(DAY))).data;
    expect(await read('1m', T0 - 120, T0 + 3_700)).toEqual([
      { t: T0 - 60, open: '0.5', high: '0.5', low: '0.5', close: '0.5', volume: '2' },
      { t: T0, open: '0.7', high: '0.7', low: '0.4', close: '0.6', volume: '5' },
      { t: T0 + 60, open: '0.45', high: '0.45', low: '0.45', close: '0.45', volume: '4' },
      { t: T0 + 3_600, open: '0.52', high: '0.52', low: '0.52', close: '0.52', volume: '10' },
    ]);
    expect(await read('5m', T0 - 300, T0 + 3_600)).toEqual([
      { t: T0 - 300, open: '0.5', high: '0.5', low: '0.5', close: '0.5', volume: '2' },
      { t: T0, open: '0.7', high: '0.7', low: '0.4', close: '0.45', volume: '9' },
      { t: T0 + 3_600, open: '0.52', high: '0.52', low: '0.52', close: '0.52', volume: '10' },
    ]);
    expect(await read('1h', T0 - 3_600, T0 + 3_600)).toEqual([
      { t: T0 - 3_600, open: '0.5', high: '0.5', low: '0.5', close: '0.5', volume: '2' },
      { t: T0, open: '0.7', high: '0.7', low: '0.4', close: '0.45', volume: '9' },
      { t: T0 + 3_600, open: '0.52', high: '0.52', low: '0.52', close: '0.52', volume: '10' },
    ]);
    expect(await read('1d', T0 - 86_400, T0)).toEqual([
      { t: T0 - 86_400, open: '0.5', high: '0.5', low: '0.5', close: '0.5', volume: '2' },
      { t: T0, open: '0.7', high: '0.7', low: '0.4', close: '0.52', volume: '19' },
    ]);

    // The public route answers the same; its range is inclusive of both ends' interval starts.
    const res = await call(`${harness.url}/v1/markets/${c}/candles?chain_id=56&interval=1h&start=${T0}&end=${T0 + 3_600}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((k: { t: number; volume: string }) => [k.t, k.volume])).toEqual([[T0, '9'], [T0 + 3_600, '10']]);
  });

  test('when many settlements of one market fold trades into one candle at once, then every trade counts once', async () => {
    const c = market.condition_id;
    const base = DAY + 86_400_000 * 3;
    const trades: CandleTrade[] = confirmedTradesOf(Array.from({ length: 16 }, (_, i) => takerFill(100 + i, base + i, `0.${10 + i}`, 1n, c)));
    await Promise.all([...trades.map((t) => applyTrades(candles(), [t])), ...trades.slice(0, 4).map((t) => applyTrades(candles(), [t]))]);
    const [day] = (await readCandles(candles(), market, { interval: '1d', start: base / 1000, end: base / 1000 }, new Date(base))).data;
    expect(day).toEqual({ t: base / 1000, open: '0.1', high: '0.25', low: '0.1', close: '0.25', volume: '16' });
  });

  test('when a write is retried after more than a thousand later trades of the same candle, then its trades still count once', async () => {
    const c = market.condition_id;
    const base = DAY + 86_400_000 * 5;
    const trades = confirmedTradesOf(Array.from({ length: 1_100 }, (_, i) => takerFill(1_000 + i, base + i, '0.5', 1n, c)));
    await applyTrades(candles(), trades.slice(0, 10));
    await applyTrades(candles(), trades.slice(10));
    await applyTrades(candles(), trades.slice(0, 10));
    const [day] = (await readCandles(candles(), market, { interval: '1d', start: base / 1000, end: base / 1000 }, new Date(base))).data;
    expect(day).toMatchObject({ volume: '1100' });
  });

  test('when one write confirms fifteen trades of one minute, then each of the four candles costs one read and one write', async () => {
    const c = market.condition_id;
    const base = DAY + 86_400_000 * 7;
    const counted = { reads: 0, writes: 0 };
    const real = candles();
    const counting = {
      findOne: (...args: Parameters<typeof real.findOne>) => { counted.reads++; return real.findOne(...args); },
      insertOne: (...args: Parameters<typeof real.insertOne>) => { counted.writes++; return real.insertOne(...args); },
      replaceOne: (...args: Parameters<typeof real.replaceOne>) => { counted.writes++; return real.replaceOne(...args); },
    } as unknown as typeof real;
    await applyTrades(counting, confirmedTradesOf(Array.from({ length: 15 }, (_, i) => takerFill(5_000 + i, base + i * 1_000, '0.3', 1n, c))));
    expect(counted).toEqual({ reads: 4, writes: 4 });
    const [minute] = (await readCandles(real, market, { interval: '1m', start: base / 1000, end: base / 1000 }, new Date(base))).data;
    expect(minute).toMatchObject({ volume: '15' });
  });

  test('when the interval is missing or unknown, or start is after end, then 422; an unknown market is 404', async () => {
    const c = market.condition_id;
    expect((await call(`${harness.url}/v1/markets/${c}/candles`)).status).toBe(422);
    expect((await call(`${harness.url}/v1/markets/${c}/candles?interval=2m`)).status).toBe(422);
    expect((await call(`${harness.url}/v1/markets/${c}/candles?interval=1m&start=100&end=50`)).status).toBe(422);
    expect((await call(`${harness.url}/v1/markets/0x${'12'.repeat(32)}/candles?interval=1m`)).status).toBe(404);
    const fromNow = await call(`${harness.url}/v1/markets/${c}/candles?interval=1d`);
    expect([fromNow.status, Array.isArray(fromNow.body.data)]).toEqual([200, true]);
  });
});
