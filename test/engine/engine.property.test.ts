import fc from 'fast-check';
import { Engine, LOT_SIZE, type EngineEvent, type EngineOrder, type FillLeg } from '../../src/engine';
import { ALICE, BOB, CAROL, DAVE, order } from './engine-fixtures';
import { ZERO_ADDRESS } from '../../src/engine';

const MAKERS = [ALICE, BOB, CAROL, DAVE];

type Op =
  | { kind: 'place'; maker: number; side: 'BUY' | 'SELL'; outcome: 0 | 1; price: number; size: bigint; type: 'LIMIT' | 'GTD' | 'MARKET' | 'FOK'; postOnly: boolean; taker: number; ttl: number; fee: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'cancelAll'; maker: number }
  | { kind: 'tick'; seconds: number };

/** Sizes in base units, D = 6 scale: whole lots, lots plus dust (the "1 wei" case), and any size. */
const D6_SIZES: fc.Arbitrary<bigint> = fc.oneof(
  fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 5_000 })).map((n) => BigInt(n) * 100_000n),
  fc.tuple(fc.integer({ min: 1, max: 50 }), fc.bigInt({ min: 1n, max: 99n })).map(([n, dust]) => BigInt(n) * 100_000n + dust),
  fc.bigInt({ min: LOT_SIZE, max: 500_000_000n }),
  fc.bigInt({ min: LOT_SIZE, max: 1_000n }),
);
/** D = 18 scale: 0.1 .. 50 shares with 18 fractional digits, plus 0.1 share + a few wei. */
const D18_SIZES: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: 10n ** 17n, max: 50n * 10n ** 18n }),
  fc.bigInt({ min: 1n, max: 500n }).map((wei) => 10n ** 17n + wei),
  fc.integer({ min: 1, max: 500 }).map((tenths) => BigInt(tenths) * 10n ** 17n),
);

const placeArb = (sizes: fc.Arbitrary<bigint>) => fc.record({
  kind: fc.constant('place' as const),
  maker: fc.integer({ min: 0, max: 3 }),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  outcome: fc.constantFrom(0 as const, 1 as const),
  price: fc.oneof(fc.integer({ min: 40, max: 60 }), fc.integer({ min: 1, max: 100 })),
  size: sizes,
  type: fc.constantFrom('LIMIT' as const, 'LIMIT' as const, 'GTD' as const, 'MARKET' as const, 'FOK' as const),
  // Applies to LIMIT and GTD only (about one in four of those).
  postOnly: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  // -1: open order; 0..3: restricted to that maker (about one in six)
  taker: fc.oneof({ weight: 5, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 }) }),
  ttl: fc.integer({ min: 0, max: 30 }),
  fee: fc.constantFrom(0, 25, 100, 10_000),
});
/**
 * Makers one taker may take: none in practice, or a cap these short streams reach (1 most often:
 * they rarely sweep more; the sweep property below makes every run reach its cap).
 */
const capArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant(Number.POSITIVE_INFINITY) },
  { weight: 2, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 3 }) },
);

const opArb = (sizes: fc.Arbitrary<bigint>): fc.Arbitrary<Op> => fc.oneof(
  { weight: 8, arbitrary: placeArb(sizes) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), maker: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 1, max: 10 }) }) },
);

/** Applies the stream deterministically; the time and hashes derive from the op index only. */
function apply(engine: Engine, ops: Op[], from: number, to: number, placed: EngineOrder[], check?: (events: EngineEvent[]) => void): EngineEvent[] {
  const all: EngineEvent[] = [];
  for (let i = from; i < to; i++) {
    const op = ops[i];
    const now = 1_000 + ops.slice(0, i + 1).reduce((t, o) => t + (o.kind === 'tick' ? o.seconds : 0), 0);
    let events: EngineEvent[];
    if (op.kind === 'place') {
      const o = order({
        hash: `h${i}`, maker: MAKERS[op.maker], side: op.side, outcome: op.outcome, price: op.price, size: op.size,
        orderType: op.type, taker: op.taker < 0 ? ZERO_ADDRESS : MAKERS[op.taker],
        expiration: op.type === 'GTD' ? now + 1 + op.ttl : op.ttl > 20 ? now + op.ttl - 20 : 0, feeRateBps: op.fee,
        postOnly: op.postOnly && (op.type === 'LIMIT' || op.type === 'GTD'),
      });
      placed.push(o);
      events = engine.place(o, now);
    } else if (op.kind === 'cancel') {
      events = placed.length === 0 ? [] : engine.cancel(placed[op.pick % placed.length].hash, now);
    } else if (op.kind === 'cancelAll') {
      events = engine.cancelAll(now, { maker: MAKERS[op.maker] });
    } else {
      events = engine.expire(now);
    }
    check?.(events);
    all.push(...events);
  }
  return all;
}

function checkLegLimits(leg: FillLeg, signed: EngineOrder): void {
  // BUY: collateral paid <= makerAmount pro rata; SELL: collateral received >= takerAmount pro rata.
  if (signed.side === 'BUY') {
    expect(leg.collateral * signed.size <= signed.makerAmount * leg.size).toBe(true);
    expect(leg.price <= signed.price).toBe(true);
  } else {
    expect(leg.collateral * signed.size >= signed.takerAmount * leg.size).toBe(true);
    expect(leg.price >= signed.price).toBe(true);
  }
  // Whole lots only, so the collateral is exact whatever the order's size.
  expect(leg.size >= LOT_SIZE && leg.size % LOT_SIZE === 0n).toBe(true);
  expect(leg.collateral * 100n).toBe(leg.size * BigInt(leg.price));
  expect(leg.fee * 1_000_000n <= BigInt(signed.feeRateBps) * BigInt(Math.min(leg.price, 100 - leg.price)) * leg.size).toBe(true);
}

/** Sums of an order's legs so far: its signed limits must also hold for the running totals. */
function checkCumulative(signed: EngineOrder, tokens: bigint, collateral: bigint): void {
  expect(tokens <= signed.size).toBe(true);
  if (signed.side === 'BUY') {
    expect(collateral <= signed.makerAmount).toBe(true);
    expect(collateral * signed.size <= signed.makerAmount * tokens).toBe(true);
  } else {
    expect(collateral * signed.size >= signed.takerAmount * tokens).toBe(true);
  }
}

const SCALES = [['D = 6 sizes (lots, lots + dust, any)', D6_SIZES], ['D = 18 sizes (18 fractional digits)', D18_SIZES]] as const;

describe.each(SCALES)('engine properties over random order streams, %s', (_scale, sizes) => {
  it('when any stream is applied, then fills are whole lots within signed limits, conserve collateral and size, dust never rests and the book never crosses', () => {
    const seen = new Map<string, number>();
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
    fc.assert(fc.property(fc.array(opArb(sizes), { minLength: 1, maxLength: 120 }), capArb, (ops, cap) => {
      const engine = new Engine({ marketId: 'p', maxMakersPerTaker: cap });
      const placed: EngineOrder[] = [];
      const byHash = () => new Map(placed.map((o) => [o.hash, o]));
      const filled = new Map<string, bigint>();
      const paid = new Map<string, bigint>();
      apply(engine, ops, 0, ops.length, placed, (events) => {
        engine.assertInvariants();
        const signed = byHash();
        // One call has one taker: it trades with at most `cap` makers.
        expect(new Set(events.flatMap((e) => (e.type === 'TRADE' ? [e.maker.orderHash] : []))).size).toBeLessThanOrEqual(cap);
        for (const e of events) {
          count(e.type === 'TRADE' ? e.kind : e.type === 'ORDER_CANCELLED' ? e.reason : e.type);
          if (e.type === 'TRADE') {
            const maker = signed.get(e.maker.orderHash)!;
            const taker = signed.get(e.taker.orderHash)!;
            checkLegLimits(e.maker, maker);
            checkLegLimits(e.taker, taker);
            // A post-only order only ever makes.
            expect(taker.postOnly).toBeFalsy();
            if (maker.postOnly) count('POST_ONLY_MADE');
            expect(e.maker.maker.toLowerCase()).not.toBe(e.taker.maker.toLowerCase());
            if (e.kind === 'TRANSFER') expect(e.maker.collateral).toBe(e.taker.collateral);
            else expect(e.maker.collateral + e.taker.collateral).toBe(e.size);
            for (const [leg, o] of [[e.maker, maker], [e.taker, taker]] as const) {
              filled.set(leg.orderHash, (filled.get(leg.orderHash) ?? 0n) + leg.size);
              paid.set(leg.orderHash, (paid.get(leg.orderHash) ?? 0n) + leg.collateral);
              checkCumulative(o, filled.get(leg.orderHash)!, paid.get(leg.orderHash)!);
              if (o.size % LOT_SIZE !== 0n) count('ODD_SIZE_FILL');
            }
          } else if (e.type !== 'BOOK_LEVEL_CHANGED') {
            // Every status event agrees with the fills seen so far: size = remaining + filled.
            expect(e.filled).toBe(filled.get(e.orderHash) ?? 0n);
            expect(e.remaining + e.filled).toBe(signed.get(e.orderHash)!.size);
            // MATCHED = nothing tradable left (less than a lot); a live or MARKET remainder is at least a lot.
            if (e.status === 'MATCHED') expect(e.remaining < LOT_SIZE).toBe(true);
            if (e.status === 'OPEN' || e.status === 'PARTIALLY_FILLED' || (e.type === 'ORDER_CANCELLED' && (e.reason === 'MARKET_REMAINDER' || e.reason === 'MAX_MAKERS_REACHED'))) {
              expect(e.remaining >= LOT_SIZE).toBe(true);
            }
            if (e.status === 'MATCHED' && e.remaining > 0n) count('MATCHED_WITH_DUST');
          }
        }
        // An FOK order's fills are all or nothing: it ends MATCHED, or CANCELLED with nothing filled.
        for (const e of events) {
          if (e.type !== 'ORDER_UPDATED' && e.type !== 'ORDER_CANCELLED' && e.type !== 'ORDER_RESTED') continue;
          if (signed.get(e.orderHash)?.orderType !== 'FOK') continue;
          expect(e.type).not.toBe('ORDER_RESTED');
          if (e.type === 'ORDER_CANCELLED') expect([e.reason, e.filled]).toEqual(['FOK_NOT_FILLED', 0n]);
          else expect(e.status).toBe('MATCHED');
          count(e.status === 'MATCHED' ? 'FOK_MATCHED' : 'FOK_CANCELLED');
        }
        // The L2 view agrees with the book: sorted best first, every level at least one lot.
        const { bids, asks } = engine.depth(500);
        for (let i = 1; i < bids.length; i++) expect(bids[i].price).toBeLessThan(bids[i - 1].price);
        for (let i = 1; i < asks.length; i++) expect(asks[i].price).toBeGreaterThan(asks[i - 1].price);
        for (const level of [...bids, ...asks]) expect(level.remaining >= LOT_SIZE).toBe(true);
      });
    }), { numRuns: 200 });
    // The streams really exercise every path the properties speak about.
    for (const key of [
      'TRANSFER', 'MINT', 'MERGE', 'SELF_TRADE', 'MARKET_REMAINDER', 'USER', 'ORDER_EXPIRED', 'ORDER_RESTED', 'ODD_SIZE_FILL', 'MATCHED_WITH_DUST',
      'POST_ONLY_WOULD_CROSS', 'POST_ONLY_MADE', 'FOK_MATCHED', 'FOK_CANCELLED',
    ]) {
      expect(seen.get(key) ?? 0).toBeGreaterThan(0);
    }
  });

  it('when a stream is replayed from a mid-stream snapshot, then it produces exactly the events of the uninterrupted run', () => {
    fc.assert(fc.property(fc.array(opArb(sizes), { minLength: 2, maxLength: 100 }), fc.nat(), capArb, (ops, cutSeed, cap) => {
      const cut = 1 + (cutSeed % (ops.length - 1));
      const whole = new Engine({ marketId: 'r', maxMakersPerTaker: cap });
      const wholeEvents = apply(whole, ops, 0, ops.length, []);

      const first = new Engine({ marketId: 'r', maxMakersPerTaker: cap });
      const placed: EngineOrder[] = [];
      const head = apply(first, ops, 0, cut, placed);
      const restored = Engine.restore(JSON.parse(JSON.stringify(first.snapshot())), { maxMakersPerTaker: cap });
      const tail = apply(restored, ops, cut, ops.length, placed);

      expect([...head, ...tail]).toEqual(wholeEvents);
      expect(restored.snapshot()).toEqual(whole.snapshot());
    }), { numRuns: 150 });
  });
});

describe('the makers-per-taker cap over random sweeps', () => {
  it('when a taker crosses more makers than its cap, then it trades with exactly the first cap of them in price-time order, its remainder is cancelled MAX_MAKERS_REACHED, and the others rest untouched', () => {
    const makerArb = fc.record({ wallet: fc.integer({ min: 0, max: 2 }), price: fc.integer({ min: 40, max: 50 }), lots: fc.integer({ min: 1, max: 3 }) });
    fc.assert(fc.property(fc.array(makerArb, { minLength: 2, maxLength: 12 }), fc.integer({ min: 1, max: 11 }), (makers, capSeed) => {
      const cap = 1 + (capSeed % (makers.length - 1)); // below the makers' number: the cap is reached
      const engine = new Engine({ marketId: 'c', maxMakersPerTaker: cap });
      makers.forEach((m, i) => engine.place(order({
        hash: `s${i}`, maker: [ALICE, CAROL, DAVE][m.wallet], side: 'SELL', outcome: 1, price: m.price, size: BigInt(m.lots) * 100_000n,
      }), 100));
      // Price first, then arrival: the order the book serves them in.
      const queue = makers.map((m, i) => ({ hash: `s${i}`, price: m.price, i })).sort((a, b) => a.price - b.price || a.i - b.i).map((m) => m.hash);
      const total = makers.reduce((sum, m) => sum + BigInt(m.lots) * 100_000n, 0n);
      const events = engine.place(order({ hash: 't', maker: BOB, side: 'BUY', outcome: 1, price: 50, size: total + 100_000n }), 101);
      engine.assertInvariants();
      expect(events.flatMap((e) => (e.type === 'TRADE' ? [e.maker.orderHash] : []))).toEqual(queue.slice(0, cap));
      const taken = queue.slice(0, cap).reduce((sum, h) => sum + BigInt(makers[Number(h.slice(1))].lots) * 100_000n, 0n);
      expect(events.find((e) => e.type === 'ORDER_CANCELLED')).toMatchObject({ orderHash: 't', reason: 'MAX_MAKERS_REACHED', filled: taken, remaining: total + 100_000n - taken });
      expect(engine.restingHashes().sort()).toEqual(queue.slice(cap).sort());
    }), { numRuns: 200 });
  });
});
