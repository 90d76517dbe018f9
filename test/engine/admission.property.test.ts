import fc from 'fast-check';
import { Engine, LOT_SIZE, type EngineEvent, type EngineOrder } from '../../src/engine';
import { ALICE, BOB, CAROL, DAVE, order } from './engine-fixtures';

const MAKERS = [ALICE, BOB, CAROL, DAVE];

/** A random resting book over prices 40..60, some orders restricted to a counterparty, some expiring. */
const bookArb = fc.array(fc.record({
  maker: fc.integer({ min: 0, max: 3 }),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  outcome: fc.constantFrom(0 as const, 1 as const),
  price: fc.integer({ min: 40, max: 60 }),
  lots: fc.integer({ min: 1, max: 8 }),
  taker: fc.oneof({ weight: 6, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 }) }),
  expires: fc.boolean(),
}), { maxLength: 25 });
const probeArb = fc.record({
  maker: fc.integer({ min: 0, max: 3 }),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  outcome: fc.constantFrom(0 as const, 1 as const),
  price: fc.integer({ min: 35, max: 65 }),
  // Small sizes weigh most so that enough FOK probes can fill whole against a 25-order book.
  size: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }).map((n) => BigInt(n) * LOT_SIZE) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 30 }).map((n) => BigInt(n) * LOT_SIZE) },
    { weight: 1, arbitrary: fc.bigInt({ min: LOT_SIZE, max: 30n * LOT_SIZE }) },
  ),
});
const capArb = fc.constantFrom(Number.POSITIVE_INFINITY, 1, 2, 3);

type Book = typeof bookArb extends fc.Arbitrary<infer T> ? T : never;

/** The book built at t=100 (expiring orders expire at 105); the probe arrives at t=110. */
function build(book: Book, cap: number): Engine {
  const engine = new Engine({ marketId: 'a', maxMakersPerTaker: cap });
  book.forEach((b, i) => engine.place(order({
    hash: `b${i}`, maker: MAKERS[b.maker], side: b.side, outcome: b.outcome, price: b.price, size: BigInt(b.lots) * LOT_SIZE,
    taker: b.taker < 0 ? undefined : MAKERS[b.taker], expiration: b.expires ? 105 : 0,
  }), 100));
  return engine;
}

const twin = (engine: Engine, cap: number) => Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())), { maxMakersPerTaker: cap });
const takerFilled = (events: EngineEvent[], hash: string) =>
  events.reduce((sum, e) => sum + (e.type === 'TRADE' && e.taker.orderHash === hash ? e.taker.size : 0n), 0n);
const endOf = (events: EngineEvent[], hash: string) =>
  events.filter((e): e is Exclude<EngineEvent, { type: 'TRADE' | 'BOOK_LEVEL_CHANGED' }> => 'orderHash' in e && e.orderHash === hash).at(-1);

describe('admission against random books', () => {
  it('when a post-only order arrives, then it never takes: it is cancelled exactly when a plain LIMIT twin would trade or cancel a self-trade, and otherwise rests as the twin does', () => {
    fc.assert(fc.property(bookArb, probeArb, capArb, (book, p, cap) => {
      const engine = build(book, cap);
      const plain = twin(engine, cap);
      const probe = (postOnly: boolean): EngineOrder => order({ hash: 'p', maker: MAKERS[p.maker], side: p.side, outcome: p.outcome, price: p.price, size: p.size, postOnly });
      const plainEvents = plain.place(probe(false), 110);
      const events = engine.place(probe(true), 110);
      engine.assertInvariants();
      expect(events.some((e) => e.type === 'TRADE')).toBe(false);
      const wouldTake = plainEvents.some((e) => e.type === 'TRADE' || (e.type === 'ORDER_CANCELLED' && e.reason === 'SELF_TRADE'));
      if (wouldTake) {
        expect(endOf(events, 'p')).toMatchObject({ type: 'ORDER_CANCELLED', reason: 'POST_ONLY_WOULD_CROSS', filled: 0n, remaining: p.size });
        // Nothing else on the book moved.
        expect(events.filter((e) => e.type !== 'ORDER_CANCELLED')).toEqual([]);
      } else {
        expect(events).toEqual(plainEvents);
        expect(engine.snapshot()).toEqual(plain.snapshot());
      }
    }), { numRuns: 500 });
  });

  it('when an FOK order arrives, then it fills whole exactly when a MARKET twin at the same limit would, and otherwise nothing trades and the book is unchanged', () => {
    let whole = 0;
    let killed = 0;
    fc.assert(fc.property(bookArb, probeArb, capArb, (book, p, cap) => {
      const engine = build(book, cap);
      const before = engine.snapshot();
      const market = twin(engine, cap);
      const probe = (orderType: 'FOK' | 'MARKET'): EngineOrder => order({ hash: 'p', maker: MAKERS[p.maker], side: p.side, outcome: p.outcome, price: p.price, size: p.size, orderType });
      const marketEvents = market.place(probe('MARKET'), 110);
      const events = engine.place(probe('FOK'), 110);
      engine.assertInvariants();
      if (endOf(marketEvents, 'p')?.status === 'MATCHED') {
        whole += 1;
        expect(events).toEqual(marketEvents);
        expect(takerFilled(events, 'p')).toBe(p.size - (p.size % LOT_SIZE));
      } else {
        killed += 1;
        expect(events).toEqual([expect.objectContaining({ type: 'ORDER_CANCELLED', orderHash: 'p', reason: 'FOK_NOT_FILLED', filled: 0n, remaining: p.size })]);
        expect(engine.snapshot()).toEqual({ ...before, seq: before.seq + 1, arrival: before.arrival + 1 });
      }
    }), { numRuns: 500 });
    expect(whole).toBeGreaterThan(20);
    expect(killed).toBeGreaterThan(20);
  });
});
