/**
 * Position rows against the fold they stand for, on the real store: random matching steps (self
 * trades, mints, sells past the position, equal times across trade 99 -> 100), each recorded once
 * or again (a retried step), some fills failing later, some of those folds racing the next step.
 * The rows must equal folding each position's fills from scratch, as the route did per request.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { countsForPosition, foldFills, inTradeOrder } from '../../src/positions/position-fold';
import {
  applyFillsToPositions, positionRowIdOf, refoldPositions, stateOf, POSITIONS_COLLECTION, type PositionFill, type PositionRow,
} from '../../src/positions/position-rows';
import { useTestDatabase } from '../helpers/test-database';

const DECIMALS = 6;
const WALLETS = ['0xaaa1', '0xbbb2', '0xccc3'];

type StoredFill = PositionFill & { _id: string };

interface TradeSpec { maker: number; taker: number; outcome: 0 | 1; mint: boolean; makerBuys: boolean; cents: number; size: number; fee: number }
interface StepSpec { later: boolean; trades: TradeSpec[]; again: boolean; fail: number[]; raceFail: boolean }

const tradeArb: fc.Arbitrary<TradeSpec> = fc.record({
  maker: fc.integer({ min: 0, max: 2 }), taker: fc.integer({ min: 0, max: 2 }), outcome: fc.constantFrom(0 as const, 1 as const), mint: fc.boolean(),
  makerBuys: fc.boolean(), cents: fc.integer({ min: 1, max: 99 }), size: fc.integer({ min: 1, max: 5_000 }), fee: fc.integer({ min: 0, max: 30 }),
});
const stepArb: fc.Arbitrary<StepSpec> = fc.record({
  later: fc.boolean(), trades: fc.array(tradeArb, { minLength: 1, maxLength: 4 }), again: fc.boolean(),
  fail: fc.array(fc.nat(), { maxLength: 2 }), raceFail: fc.boolean(),
});

/** Fills of a step: the maker's and the taker's leg of each trade, numbered on from `firstTrade`. */
function fillsOf(condition: string, steps: StepSpec[]): StoredFill[][] {
  let t = Date.parse('2026-03-01T00:00:00.000Z');
  let trade = 95; // crosses 99 -> 100 within one time
  return steps.map((step) => {
    if (step.later) t += 1000;
    return step.trades.flatMap((s) => {
      const tradeId = `56:${condition}:${trade++}`;
      const price = (cents: number) => (cents / 100).toString();
      const makerSide = s.makerBuys ? 'BUY' : 'SELL';
      // A mint: both buy, each its own outcome; else the taker takes the other side of the same outcome.
      const taker = s.mint ? { side: 'BUY', outcome: (1 - s.outcome) as 0 | 1, cents: 100 - s.cents } : { side: s.makerBuys ? 'SELL' : 'BUY', outcome: s.outcome, cents: s.cents };
      const base = { chain_id: 56, condition_id: condition, trade_id: tradeId, size: (s.size / 100).toString(), settlement_status: 'PENDING', created_at: new Date(t) };
      return [
        { ...base, _id: `${tradeId}:maker`, order_hash: `0xm${trade}`, wallet: WALLETS[s.maker], side: s.mint ? 'BUY' : makerSide, outcome: s.outcome, price: price(s.cents), fee: '0' },
        { ...base, _id: `${tradeId}:taker`, order_hash: `0xt${trade}`, wallet: WALLETS[s.taker], side: taker.side, outcome: taker.outcome, price: price(taker.cents), fee: (s.fee / 1000).toString() },
      ] as StoredFill[];
    });
  });
}

describe('position rows', () => {
  const database = useTestDatabase('position_rows');
  const rows = () => database.db().db!.collection<PositionRow>(POSITIONS_COLLECTION);
  const fills = () => database.db().db!.collection<StoredFill>('fills');

  async function failFills(chosen: StoredFill[]): Promise<void> {
    if (chosen.length === 0) return;
    await fills().updateMany({ _id: { $in: chosen.map((f) => f._id) } }, { $set: { settlement_status: 'FAILED' } });
    for (const f of chosen) f.settlement_status = 'FAILED';
    await refoldPositions(rows(), fills(), chosen.map(positionRowIdOf));
  }

  test('when random steps are recorded, retried and partly failed, then every row equals the fold of its position\'s fills', async () => {
    await fc.assert(fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 8 }), async (steps) => {
      const condition = `0x${randomBytes(32).toString('hex')}`;
      const recorded: StoredFill[] = [];
      const stepFills = fillsOf(condition, steps);
      for (const [i, step] of steps.entries()) {
        const own = stepFills[i];
        // Failures of earlier steps' fills (settlement starts after a step is written), some racing this step's fold.
        const chosen = recorded.length === 0 ? [] : [...new Set(step.fail.map((n) => recorded[n % recorded.length]))].filter((f) => f.settlement_status !== 'FAILED');
        await fills().insertMany(own.map((f) => ({ ...f })));
        recorded.push(...own);
        const copies = () => own.map((f) => ({ ...f }));
        if (step.raceFail) await Promise.all([applyFillsToPositions(rows(), copies(), DECIMALS), failFills(chosen)]);
        else {
          await applyFillsToPositions(rows(), copies(), DECIMALS);
          await failFills(chosen);
        }
        if (step.again) await applyFillsToPositions(rows(), copies(), DECIMALS);
      }
      const stored = new Map((await rows().find({ condition_id: condition }).toArray()).map((r) => [r._id, r]));
      const positions = new Map<string, PositionFill[]>();
      for (const f of recorded) positions.set(positionRowIdOf(f), [...(positions.get(positionRowIdOf(f)) ?? []), f]);
      expect([...stored.keys()].sort()).toEqual([...positions.keys()].sort());
      for (const [id, list] of positions) {
        const ordered = [...list].sort(inTradeOrder);
        const counted = ordered.filter(countsForPosition);
        const row = stored.get(id)!;
        expect({ id, state: stateOf(row), live: row.live, first_at: row.first_at })
          .toEqual({ id, state: foldFills(counted, DECIMALS), live: counted.length, first_at: ordered[0].created_at });
      }
    }), { numRuns: 30, endOnFailure: true });
  }, 300_000);
});
