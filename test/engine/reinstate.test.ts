/**
 * Engine.reinstate: an order whose match failed to settle because of another order goes back
 * where it stood, a maker at its original place in the FIFO, a taker through the book again.
 */
import fc from 'fast-check';
import { Engine, type EngineEvent, type EngineOrder } from '../../src/engine';
import { ALICE, BOB, CAROL, DAVE, buyNo, buyYes, order, seed, shares, typesOf } from './engine-fixtures';

const queueAt = (engine: Engine, price: number) => {
  const hashes: string[] = [];
  for (let o = engine.bids.level(price)?.head ?? null; o; o = o.next) hashes.push(o.hash);
  return hashes;
};
const tradesOf = (events: EngineEvent[]) => events.flatMap((e) => (e.type === 'TRADE' ? [[e.maker.orderHash, e.taker.orderHash, e.size, e.yesPrice]] : []));

describe('Engine.reinstate', () => {
  it('when two makers filled by one taker are returned after a later order joined their level, then they rest ahead of it in their original order, with their full size', () => {
    const engine = new Engine({ marketId: 'm' });
    seed(engine, [buyYes('a', ALICE, 50, 10), buyYes('c', CAROL, 50, 10)]);
    const arrivals = { a: engine.order('a')!.arrival, c: engine.order('c')!.arrival };
    const taken = engine.place(buyNo('b', BOB, 50, 20), 101);
    expect(tradesOf(taken).map((t) => t[0])).toEqual(['a', 'c']);
    engine.place(buyYes('d', DAVE, 50, 5), 102);
    // A's allowance is gone: the whole match fails, C is returned, and so is the taker B.
    const events = engine.reinstate([{ order: buyYes('c', CAROL, 50, 10), returned: shares(10), known: { filled: shares(10), remaining: 0n, arrival: arrivals.c } }], 103);
    engine.assertInvariants();
    expect(typesOf(events)).toEqual(['ORDER_RESTED', 'BOOK_LEVEL_CHANGED']);
    expect(events[0]).toMatchObject({ orderHash: 'c', status: 'OPEN', remaining: shares(10), filled: 0n });
    expect(queueAt(engine, 50)).toEqual(['c', 'd']);
    expect(engine.order('c')?.arrival).toBe(arrivals.c);
    // The taker's 20 go through the book again: C first (older than D), then D.
    const again = engine.reinstate([{ order: buyNo('b', BOB, 50, 20), returned: shares(20), known: { filled: shares(20), remaining: 0n } }], 104);
    engine.assertInvariants();
    expect(tradesOf(again)).toEqual([['c', 'b', shares(10), 50], ['d', 'b', shares(5), 50]]);
    expect(engine.order('b')).toMatchObject({ remaining: shares(5), filled: shares(15), status: 'PARTIALLY_FILLED' });
  });

  it('when a partly filled maker still resting is returned, then it keeps its place in the level and gets the units back', () => {
    const engine = new Engine({ marketId: 'm' });
    seed(engine, [buyYes('a', ALICE, 50, 10), buyYes('c', CAROL, 50, 10)]);
    engine.place(buyNo('b', BOB, 50, 4), 101);
    expect(engine.order('a')).toMatchObject({ remaining: shares(6), status: 'PARTIALLY_FILLED' });
    const events = engine.reinstate([{ order: buyYes('a', ALICE, 50, 10), returned: shares(4) }], 102);
    engine.assertInvariants();
    expect(events[0]).toMatchObject({ type: 'ORDER_RESTED', orderHash: 'a', status: 'OPEN', remaining: shares(10), filled: 0n });
    expect(queueAt(engine, 50)).toEqual(['a', 'c']);
  });

  it('when a returned order now crosses an order that came meanwhile, then it trades with it first, as on arrival', () => {
    const engine = new Engine({ marketId: 'm' });
    seed(engine, [buyYes('a', ALICE, 50, 10)]);
    const arrival = engine.order('a')!.arrival;
    engine.place(order({ hash: 's1', maker: BOB, side: 'SELL', outcome: 1, price: 50, size: shares(10) }), 101);
    engine.place(order({ hash: 's2', maker: CAROL, side: 'SELL', outcome: 1, price: 50, size: shares(3) }), 102);
    const events = engine.reinstate([{ order: buyYes('a', ALICE, 50, 10), returned: shares(10), known: { filled: shares(10), remaining: 0n, arrival } }], 103);
    engine.assertInvariants();
    expect(tradesOf(events)).toEqual([['s2', 'a', shares(3), 50]]);
    expect(engine.order('a')).toMatchObject({ remaining: shares(7), arrival });
  });

  it('when a return is past the expiration of its order, then the order ends EXPIRED instead of resting', () => {
    const engine = new Engine({ marketId: 'm' });
    const gtd = buyYes('a', ALICE, 50, 10, { orderType: 'GTD', expiration: 200 });
    seed(engine, [gtd]);
    engine.place(buyNo('b', BOB, 50, 10), 101);
    const events = engine.reinstate([{ order: gtd, returned: shares(10), known: { filled: shares(10), remaining: 0n, arrival: 1 } }], 250);
    expect(typesOf(events)).toEqual(['ORDER_EXPIRED']);
    expect(engine.restingCount).toBe(0);
  });

  it('when a return names more than the order filled, an arrival the engine never gave, or an unknown order without its state, then it is refused and the book is untouched', () => {
    const engine = new Engine({ marketId: 'm' });
    seed(engine, [buyYes('a', ALICE, 50, 10)]);
    engine.place(buyNo('b', BOB, 50, 4), 101);
    const before = engine.snapshot();
    expect(() => engine.reinstate([{ order: buyYes('a', ALICE, 50, 10), returned: shares(5) }], 102)).toThrow(/cannot return/);
    expect(() => engine.reinstate([{ order: buyYes('x', DAVE, 50, 10), returned: shares(1) }], 102)).toThrow(/state is unknown/);
    expect(() => engine.reinstate([{ order: buyYes('x', DAVE, 50, 10), returned: shares(1), known: { filled: shares(1), remaining: shares(9), arrival: 99 } }], 102)).toThrow(/arrival/);
    expect(engine.snapshot()).toEqual(before);
  });
});

describe('Engine.reinstate over random books', () => {
  const levelArb = fc.record({ maker: fc.integer({ min: 0, max: 2 }), side: fc.constantFrom('bid' as const, 'ask' as const), price: fc.integer({ min: 45, max: 55 }), lots: fc.integer({ min: 1, max: 4 }) });
  it('when every maker a taker traded with is returned, then the book is exactly as before the taker came; and the taker returned too trades exactly as it did', () => {
    fc.assert(fc.property(fc.array(levelArb, { minLength: 1, maxLength: 14 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 40, max: 60 }), fc.boolean(), (book, lots, price, buys) => {
      const engine = new Engine({ marketId: 'p', maxMakersPerTaker: 5 });
      const makers = [ALICE, CAROL, DAVE];
      const placed = new Map<string, EngineOrder>();
      book.forEach((l, i) => {
        // A bid is a BUY YES, an ask a SELL YES; prices keep them apart so the seed never trades.
        const o = order({ hash: `m${i}`, maker: makers[l.maker], side: l.side === 'bid' ? 'BUY' : 'SELL', outcome: 1, price: l.side === 'bid' ? l.price - 10 : l.price, size: BigInt(l.lots) * 100_000n });
        placed.set(o.hash, o);
        engine.place(o, 100);
      });
      const before = engine.snapshot();
      const states = new Map([...placed.keys()].map((h) => [h, engine.order(h)]));
      const taker = order({ hash: 't', maker: BOB, side: buys ? 'BUY' : 'SELL', outcome: 1, price: buys ? price : price - 10, size: BigInt(lots) * 100_000n });
      const first = engine.place(taker, 101);
      fc.pre(!first.some((e) => e.type === 'ORDER_CANCELLED' && e.orderHash !== 't'));
      const trades = first.filter((e): e is Extract<EngineEvent, { type: 'TRADE' }> => e.type === 'TRADE');
      fc.pre(trades.length > 0);
      const returned = new Map<string, bigint>();
      for (const t of trades) returned.set(t.maker.orderHash, (returned.get(t.maker.orderHash) ?? 0n) + t.size);
      const took = trades.reduce((sum, t) => sum + t.size, 0n);
      const known = (hash: string, units: bigint) => {
        const was = states.get(hash)!;
        return engine.order(hash) ? undefined : { filled: was.filled + units, remaining: was.remaining - units, arrival: was.arrival };
      };
      // The makers alone first (the taker's remainder, if it rests, lifted aside and put back untouched).
      const makersBack = [...returned].map(([hash, units]) => ({ order: placed.get(hash)!, returned: units, known: known(hash, units) }));
      const restingTaker = engine.order('t');
      if (restingTaker) engine.cancel('t', 102);
      engine.reinstate(makersBack, 102);
      engine.assertInvariants();
      // Counters moved on (seq, trades, the taker's arrival); the book itself is as it was.
      expect(engine.snapshot().orders).toEqual(before.orders);
      // The taker goes through the book again (its filled units returned) and meets the same makers.
      const again = engine.reinstate([{ order: taker, returned: took, known: { filled: took, remaining: taker.size - took } }], 103);
      engine.assertInvariants();
      const legs = (list: EngineEvent[]) => list.flatMap((e) => (e.type === 'TRADE' ? [[e.maker.orderHash, e.size, e.yesPrice]] : []));
      expect(legs(again)).toEqual(legs(first));
    }), { numRuns: 300 });
  });
});
