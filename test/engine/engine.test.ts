import { Engine, EngineError, LOT_SIZE, MAX_MAKERS_PER_TAKER, signedAmounts, ZERO_ADDRESS, type EngineEvent } from '../../src/engine';
import { ALICE, BOB, CAROL, DAVE, buyNo, buyYes, order, seed, sellNo, sellYes, shares, strip, typesOf, withUnits } from './engine-fixtures';

const buyYesUnits = withUnits('BUY', 1);
const sellYesUnits = withUnits('SELL', 1);
const buyNoUnits = withUnits('BUY', 0);

const newEngine = () => new Engine({ marketId: 'm' });

/** A known book: asks 55 (BOB's BUY NO @45) and 60 (ALICE then CAROL), bids 50 (DAVE then BOB) and 48 (ALICE's SELL NO @52). */
function seededBook(): Engine {
  const engine = newEngine();
  seed(engine, [
    sellYes('a1', ALICE, 60, 10),
    buyNo('a2', BOB, 45, 4),
    sellYes('a3', CAROL, 60, 5),
    buyYes('b1', DAVE, 50, 3),
    sellNo('b2', ALICE, 52, 2),
    buyYes('b3', BOB, 50, 1),
  ]);
  return engine;
}

function expectEngineError(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(EngineError);
  expect((caught as EngineError).code).toBe(code);
}

function step(engine: Engine, events: EngineEvent[]): EngineEvent[] {
  engine.assertInvariants();
  return events;
}

describe('book in YES terms', () => {
  it('when a known book is seeded, then the L2 snapshot lists bids descending and asks ascending with NO orders translated', () => {
    const engine = seededBook();
    expect(engine.depth()).toEqual({
      seq: 6,
      bids: [{ price: 50, remaining: shares(4) }, { price: 48, remaining: shares(2) }],
      asks: [{ price: 55, remaining: shares(4) }, { price: 60, remaining: shares(15) }],
    });
    expect(engine.bestBid()).toBe(50);
    expect(engine.bestAsk()).toBe(55);
    expect(engine.depth(1)).toEqual({ seq: 6, bids: [{ price: 50, remaining: shares(4) }], asks: [{ price: 55, remaining: shares(4) }] });
    expect(engine.order('a2')).toMatchObject({ bookSide: 'ask', yesPrice: 55, price: 45, status: 'OPEN', remaining: shares(4) });
    expect(engine.order('b2')).toMatchObject({ bookSide: 'bid', yesPrice: 48, price: 52, side: 'SELL', outcome: 0 });
  });

  it('when an order rests, then it emits ORDER_RESTED and one BOOK_LEVEL_CHANGED under a new book seq', () => {
    const engine = newEngine();
    const events = engine.place(buyNo('n1', ALICE, 30, 2), 7);
    expect(events).toEqual([
      { type: 'ORDER_RESTED', seq: 1, at: 7, orderHash: 'n1', bookSide: 'ask', yesPrice: 70, status: 'OPEN', remaining: shares(2), filled: 0n },
      { type: 'BOOK_LEVEL_CHANGED', seq: 2, at: 7, bookSeq: 1, side: 'ask', price: 70, remaining: shares(2) },
    ]);
    engine.assertInvariants();
  });
});

describe('matching', () => {
  it('when a BUY YES sweeps two ask levels, then it mints against a BUY NO, transfers against SELL YES in FIFO order, at maker prices', () => {
    const engine = seededBook();
    const events = step(engine, engine.place(buyYes('d1', DAVE, 60, 16), 101));
    expect(strip(events)).toEqual([
      {
        type: 'TRADE', tradeId: 'm:1', kind: 'MINT', yesPrice: 55, size: shares(4),
        maker: { orderHash: 'a2', maker: BOB, side: 'BUY', outcome: 0, price: 45, size: shares(4), collateral: shares(1.8), fee: 0n },
        taker: { orderHash: 'd1', maker: DAVE, side: 'BUY', outcome: 1, price: 55, size: shares(4), collateral: shares(2.2), fee: 0n },
      },
      { type: 'ORDER_UPDATED', orderHash: 'a2', status: 'MATCHED', remaining: 0n, filled: shares(4) },
      {
        type: 'TRADE', tradeId: 'm:2', kind: 'TRANSFER', yesPrice: 60, size: shares(10),
        maker: { orderHash: 'a1', maker: ALICE, side: 'SELL', outcome: 1, price: 60, size: shares(10), collateral: shares(6), fee: 0n },
        taker: { orderHash: 'd1', maker: DAVE, side: 'BUY', outcome: 1, price: 60, size: shares(10), collateral: shares(6), fee: 0n },
      },
      { type: 'ORDER_UPDATED', orderHash: 'a1', status: 'MATCHED', remaining: 0n, filled: shares(10) },
      {
        type: 'TRADE', tradeId: 'm:3', kind: 'TRANSFER', yesPrice: 60, size: shares(2),
        maker: { orderHash: 'a3', maker: CAROL, side: 'SELL', outcome: 1, price: 60, size: shares(2), collateral: shares(1.2), fee: 0n },
        taker: { orderHash: 'd1', maker: DAVE, side: 'BUY', outcome: 1, price: 60, size: shares(2), collateral: shares(1.2), fee: 0n },
      },
      { type: 'ORDER_UPDATED', orderHash: 'a3', status: 'PARTIALLY_FILLED', remaining: shares(3), filled: shares(2) },
      { type: 'ORDER_UPDATED', orderHash: 'd1', status: 'MATCHED', remaining: 0n, filled: shares(16) },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 7, side: 'ask', price: 55, remaining: 0n },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 7, side: 'ask', price: 60, remaining: shares(3) },
    ]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => events[0].seq + i));
    expect(engine.depth().asks).toEqual([{ price: 60, remaining: shares(3) }]);
    expect(engine.order('a3')).toMatchObject({ status: 'PARTIALLY_FILLED', remaining: shares(3), filled: shares(2) });
    expect(engine.order('a1')).toBeUndefined();
  });

  it('when a SELL NO crosses a SELL YES, then they merge and the taker keeps the improvement', () => {
    const engine = newEngine();
    seed(engine, [sellYes('s1', ALICE, 40, 5)]);
    const events = step(engine, engine.place(sellNo('s2', BOB, 55, 5), 101));
    const trade = events[0];
    expect(trade).toMatchObject({ type: 'TRADE', kind: 'MERGE', yesPrice: 40, size: shares(5) });
    if (trade.type !== 'TRADE') throw new Error('expected a trade');
    expect(trade.maker).toMatchObject({ orderHash: 's1', side: 'SELL', outcome: 1, price: 40, collateral: shares(2) });
    expect(trade.taker).toMatchObject({ orderHash: 's2', side: 'SELL', outcome: 0, price: 60, collateral: shares(3) });
    expect(trade.maker.collateral + trade.taker.collateral).toBe(shares(5));
    expect(typesOf(events)).toEqual(['TRADE', 'ORDER_UPDATED', 'ORDER_UPDATED', 'BOOK_LEVEL_CHANGED']);
  });

  it('when a SELL NO crosses a BUY NO, then NO tokens transfer at the maker NO price', () => {
    const engine = newEngine();
    seed(engine, [buyNo('n1', CAROL, 30, 2)]);
    const [trade] = step(engine, engine.place(sellNo('n2', DAVE, 25, 2), 101));
    expect(trade).toMatchObject({
      type: 'TRADE', kind: 'TRANSFER', yesPrice: 70,
      maker: { orderHash: 'n1', side: 'BUY', outcome: 0, price: 30, collateral: shares(0.6) },
      taker: { orderHash: 'n2', side: 'SELL', outcome: 0, price: 30, collateral: shares(0.6) },
    });
  });

  it('when a SELL YES hits the bids, then it transfers against BUY YES and merges against SELL NO, best bid first', () => {
    const engine = seededBook();
    const events = step(engine, engine.place(sellYes('s1', CAROL, 45, 6), 101));
    const trades = events.filter((e) => e.type === 'TRADE');
    expect(trades.map((t) => [t.kind, t.yesPrice, t.size, t.maker.orderHash])).toEqual([
      ['TRANSFER', 50, shares(3), 'b1'],
      ['TRANSFER', 50, shares(1), 'b3'],
      ['MERGE', 48, shares(2), 'b2'],
    ]);
    expect(events.at(-3)).toMatchObject({ type: 'ORDER_UPDATED', orderHash: 's1', status: 'MATCHED' });
    expect(engine.depth().bids).toEqual([]);
  });

  it('when a limit order partly fills, then its remainder rests PARTIALLY_FILLED at its own price', () => {
    const engine = newEngine();
    seed(engine, [sellYes('a', ALICE, 55, 3)]);
    const events = step(engine, engine.place(buyYes('b', BOB, 58, 5), 101));
    expect(strip(events).slice(2)).toEqual([
      { type: 'ORDER_RESTED', orderHash: 'b', bookSide: 'bid', yesPrice: 58, status: 'PARTIALLY_FILLED', remaining: shares(2), filled: shares(3) },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 2, side: 'ask', price: 55, remaining: 0n },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 2, side: 'bid', price: 58, remaining: shares(2) },
    ]);
  });

  it('when a resting order has expired by the time it would match, then it expires instead of trading', () => {
    const engine = newEngine();
    seed(engine, [sellYes('old', ALICE, 50, 1, { expiration: 150 }), sellYes('new', CAROL, 50, 1)]);
    const events = step(engine, engine.place(buyYes('b', BOB, 50, 1), 150));
    expect(typesOf(events)).toEqual(['ORDER_EXPIRED', 'TRADE', 'ORDER_UPDATED', 'ORDER_UPDATED', 'BOOK_LEVEL_CHANGED']);
    expect(events[1]).toMatchObject({ maker: { orderHash: 'new' } });
  });
});

describe('lots and dust (sizes that are not whole lots)', () => {
  const TEN_AND_A_WEI = shares(10) + 1n;

  it('when an incoming order of 10 shares + 1 wei matches 10 shares, then it ends MATCHED with the wei in remaining', () => {
    const engine = newEngine();
    seed(engine, [sellYes('s', ALICE, 50, 10)]);
    const events = step(engine, engine.place(buyYesUnits('b', BOB, 50, TEN_AND_A_WEI), 101));
    expect(strip(events)).toEqual([
      expect.objectContaining({ type: 'TRADE', size: shares(10), taker: expect.objectContaining({ size: shares(10), collateral: shares(5) }) }),
      { type: 'ORDER_UPDATED', orderHash: 's', status: 'MATCHED', remaining: 0n, filled: shares(10) },
      { type: 'ORDER_UPDATED', orderHash: 'b', status: 'MATCHED', remaining: 1n, filled: shares(10) },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 2, side: 'ask', price: 50, remaining: 0n },
    ]);
    expect(engine.restingCount).toBe(0);
    expect(engine.depth()).toMatchObject({ bids: [], asks: [] });
  });

  it('when a resting order of 10 shares + 1 wei is hit for 10 shares, then it ends MATCHED and leaves the book with its wei', () => {
    const engine = newEngine();
    seed(engine, [buyYesUnits('b', BOB, 50, TEN_AND_A_WEI)]);
    expect(engine.depth().bids).toEqual([{ price: 50, remaining: TEN_AND_A_WEI }]);
    const events = step(engine, engine.place(sellYes('s', ALICE, 50, 10), 101));
    expect(strip(events).slice(1)).toEqual([
      { type: 'ORDER_UPDATED', orderHash: 'b', status: 'MATCHED', remaining: 1n, filled: shares(10) },
      { type: 'ORDER_UPDATED', orderHash: 's', status: 'MATCHED', remaining: 0n, filled: shares(10) },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 2, side: 'bid', price: 50, remaining: 0n },
    ]);
    expect(engine.order('b')).toBeUndefined();
    expect(engine.depth().bids).toEqual([]);
  });

  it('when a larger incoming order meets dust-sized makers, then every fill is whole lots and no level keeps a sub-lot total', () => {
    const engine = newEngine();
    // Level 60 holds a (3 shares + 50 wei) then c (2 shares); level 61 holds d (1 share + 99 wei).
    seed(engine, [sellYesUnits('a', ALICE, 60, shares(3) + 50n), sellYes('c', CAROL, 60, 2), sellYesUnits('d', DAVE, 61, shares(1) + 99n)]);
    const events = step(engine, engine.place(buyYesUnits('b', BOB, 61, shares(4) + 70n), 101));
    const trades = events.filter((e) => e.type === 'TRADE');
    expect(trades.map((t) => [t.maker.orderHash, t.size])).toEqual([['a', shares(3)], ['c', shares(1)]]);
    expect(events.filter((e) => e.type === 'ORDER_UPDATED').map((e) => [e.orderHash, e.status, e.remaining])).toEqual([
      ['a', 'MATCHED', 50n],
      ['c', 'PARTIALLY_FILLED', shares(1)],
      ['b', 'MATCHED', 70n],
    ]);
    expect(engine.depth().asks).toEqual([{ price: 60, remaining: shares(1) }, { price: 61, remaining: shares(1) + 99n }]);
    for (const t of trades) expect(t.size % LOT_SIZE).toBe(0n);
  });

  it('when both orders hold less than two lots, then one lot trades and both end MATCHED with their dust', () => {
    const engine = newEngine();
    seed(engine, [sellYesUnits('s', ALICE, 37, 150n)]);
    const events = step(engine, engine.place(buyYesUnits('b', BOB, 37, 199n), 101));
    expect(strip(events)).toEqual([
      {
        type: 'TRADE', tradeId: 'm:1', kind: 'TRANSFER', yesPrice: 37, size: 100n,
        maker: { orderHash: 's', maker: ALICE, side: 'SELL', outcome: 1, price: 37, size: 100n, collateral: 37n, fee: 0n },
        taker: { orderHash: 'b', maker: BOB, side: 'BUY', outcome: 1, price: 37, size: 100n, collateral: 37n, fee: 0n },
      },
      { type: 'ORDER_UPDATED', orderHash: 's', status: 'MATCHED', remaining: 50n, filled: 100n },
      { type: 'ORDER_UPDATED', orderHash: 'b', status: 'MATCHED', remaining: 99n, filled: 100n },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 2, side: 'ask', price: 37, remaining: 0n },
    ]);
  });

  it('when a partly matched order keeps at least one lot, then it rests with its odd remainder', () => {
    const engine = newEngine();
    seed(engine, [sellYes('s', ALICE, 50, 2)]);
    const events = step(engine, engine.place(buyYesUnits('b', BOB, 50, shares(5) + 1n), 101));
    expect(strip(events).at(-3)).toEqual({ type: 'ORDER_RESTED', orderHash: 'b', bookSide: 'bid', yesPrice: 50, status: 'PARTIALLY_FILLED', remaining: shares(3) + 1n, filled: shares(2) });
    expect(engine.depth().bids).toEqual([{ price: 50, remaining: shares(3) + 1n }]);
    // Hitting all of it leaves the wei: MATCHED, off the book.
    const rest = step(engine, engine.place(sellYes('t', CAROL, 50, 4), 102));
    expect(rest.find((e) => e.type === 'ORDER_UPDATED' && e.orderHash === 'b')).toMatchObject({ status: 'MATCHED', remaining: 1n, filled: shares(5) });
    expect(engine.depth()).toMatchObject({ bids: [], asks: [{ price: 50, remaining: shares(1) }] });
  });

  it('when a MARKET order is left with less than a lot, then it ends MATCHED; with a lot or more, CANCELLED', () => {
    const engine = newEngine();
    seed(engine, [sellYes('s1', ALICE, 50, 3), sellYes('s2', CAROL, 70, 3)]);
    const full = step(engine, engine.place(buyYesUnits('m1', BOB, 60, shares(3) + 7n, { orderType: 'MARKET' }), 101));
    expect(strip(full).at(-2)).toEqual({ type: 'ORDER_UPDATED', orderHash: 'm1', status: 'MATCHED', remaining: 7n, filled: shares(3) });
    const part = step(engine, engine.place(buyYesUnits('m2', BOB, 70, shares(4) + 1n, { orderType: 'MARKET' }), 102));
    expect(strip(part).at(-2)).toEqual({ type: 'ORDER_CANCELLED', orderHash: 'm2', reason: 'MARKET_REMAINDER', status: 'CANCELLED', remaining: shares(1) + 1n, filled: shares(3) });
  });

  it('when a D = 18 order of 0.100000000000000001 share mints against a NO buyer, then the legs are exact whole lots within both signed limits', () => {
    const S = 10n ** 17n + 1n; // 0.100000000000000001 share at D = 18
    const engine = newEngine();
    seed(engine, [buyNoUnits('n', ALICE, 99, 10n ** 17n)]);
    const yes = buyYesUnits('y', BOB, 1, S);
    expect(yes).toMatchObject({ makerAmount: 10n ** 15n + 1n, takerAmount: S });
    const events = step(engine, engine.place(yes, 101));
    expect(events[0]).toMatchObject({
      type: 'TRADE', kind: 'MINT', size: 10n ** 17n,
      maker: { orderHash: 'n', price: 99, collateral: 99n * 10n ** 15n },
      taker: { orderHash: 'y', price: 1, collateral: 10n ** 15n },
    });
    expect(strip(events).at(-2)).toEqual({ type: 'ORDER_UPDATED', orderHash: 'y', status: 'MATCHED', remaining: 1n, filled: 10n ** 17n });
    // BUY limit, pro rata: paid * S <= makerAmount * got.
    expect(10n ** 15n * S <= yes.makerAmount * 10n ** 17n).toBe(true);
  });

  it('when an order is smaller than one lot, then place throws INVALID_SIZE and nothing changes', () => {
    const engine = newEngine();
    seed(engine, [sellYes('s', ALICE, 50, 1)]);
    expectEngineError(() => engine.place(buyYesUnits('b', BOB, 50, 99n), 101), 'INVALID_SIZE');
    expect(engine.depth().asks).toEqual([{ price: 50, remaining: shares(1) }]);
  });

  it('when a snapshot holds odd-sized orders, then it round-trips; a resting sub-lot remainder or a non-lot fill is refused', () => {
    const engine = newEngine();
    seed(engine, [sellYesUnits('s', ALICE, 50, shares(2) + 3n), buyYesUnits('b', BOB, 50, shares(1) + 1n)]);
    const snap = JSON.parse(JSON.stringify(engine.snapshot()));
    expect(snap.orders).toEqual([expect.objectContaining({ hash: 's', remaining: String(shares(1) + 3n), filled: String(shares(1)) })]);
    expect(Engine.restore(snap).depth()).toEqual(engine.depth());
    const dust = { ...snap, orders: [{ ...snap.orders[0], remaining: '3', filled: String(shares(2)) }] };
    expectEngineError(() => Engine.restore(dust), 'INVALID_SNAPSHOT');
    const oddFill = { ...snap, orders: [{ ...snap.orders[0], remaining: String(shares(1) + 2n), filled: String(shares(1) + 1n) }] };
    expectEngineError(() => Engine.restore(oddFill), 'INVALID_SNAPSHOT');
  });

  it('when a resting order is left with a sub-lot remainder behind the engine\'s back, then assertInvariants throws', () => {
    const engine = newEngine();
    seed(engine, [sellYesUnits('s', ALICE, 50, shares(1) + 5n)]);
    const o = engine.orders.get('s')!;
    o.remaining = 5n;
    o.filled = shares(1);
    o.status = 'PARTIALLY_FILLED';
    engine.asks.level(50)!.total = 5n;
    expectEngineError(() => engine.assertInvariants(), 'INVARIANT_VIOLATED');
  });
});

describe('makers per taker', () => {
  const capped = (cap: number) => new Engine({ marketId: 'm', maxMakersPerTaker: cap });
  const tradesOf = (events: EngineEvent[]) => events.filter((e) => e.type === 'TRADE');

  it('when a LIMIT order takes the cap of makers and still crosses, then its remainder is cancelled MAX_MAKERS_REACHED (never rests crossed) and the untaken makers keep their place', () => {
    const engine = capped(3);
    seed(engine, [sellYes('a', ALICE, 50, 1), sellYes('b', CAROL, 50, 1), sellYes('c', DAVE, 51, 1), sellYes('d', ALICE, 51, 1), sellYes('e', CAROL, 52, 1)]);
    const events = step(engine, engine.place(buyYes('t', BOB, 52, 5), 101));
    expect(tradesOf(events).map((e) => e.type === 'TRADE' && e.maker.orderHash)).toEqual(['a', 'b', 'c']);
    expect(strip(events).find((e) => e.type === 'ORDER_CANCELLED')).toEqual({
      type: 'ORDER_CANCELLED', orderHash: 't', reason: 'MAX_MAKERS_REACHED', status: 'CANCELLED', remaining: shares(2), filled: shares(3),
    });
    expect(engine.order('t')).toBeUndefined();
    expect(engine.restingHashes()).toEqual(['d', 'e']);
    expect(engine.depth()).toMatchObject({ bids: [], asks: [{ price: 51, remaining: shares(1) }, { price: 52, remaining: shares(1) }] });
  });

  it('when an order fills whole on exactly the cap of makers, or stops crossing there, then it ends MATCHED or rests as usual', () => {
    const engine = capped(2);
    seed(engine, [sellYes('a', ALICE, 50, 1), sellYes('b', CAROL, 50, 1), sellYes('c', DAVE, 55, 1)]);
    expect(strip(step(engine, engine.place(buyYes('t1', BOB, 50, 2), 101))).at(-2)).toMatchObject({ orderHash: 't1', status: 'MATCHED' });
    seed(engine, [sellYes('a2', ALICE, 50, 1), sellYes('b2', CAROL, 50, 1)]);
    const events = step(engine, engine.place(buyYes('t2', BOB, 50, 5), 102));
    expect(tradesOf(events)).toHaveLength(2);
    expect(engine.order('t2')).toMatchObject({ status: 'PARTIALLY_FILLED', remaining: shares(3) });
  });

  it('when a MARKET order reaches the cap, then its remainder is cancelled with MAX_MAKERS_REACHED rather than MARKET_REMAINDER', () => {
    const engine = capped(1);
    seed(engine, [sellYes('a', ALICE, 50, 1), sellYes('b', CAROL, 50, 1)]);
    const events = step(engine, engine.place(buyYes('m', BOB, 60, 2, { orderType: 'MARKET' }), 101));
    expect(strip(events).find((e) => e.type === 'ORDER_CANCELLED')).toMatchObject({ orderHash: 'm', reason: 'MAX_MAKERS_REACHED', filled: shares(1) });
  });

  it('when the taker meets its own resting orders or expired ones on the way, then those leave the book without counting toward the cap', () => {
    const engine = capped(2);
    seed(engine, [sellYes('own', BOB, 50, 1), sellYes('old', ALICE, 50, 1, { orderType: 'GTD', expiration: 101 }), sellYes('a', CAROL, 50, 1), sellYes('b', DAVE, 51, 1)]);
    const events = step(engine, engine.place(buyYes('t', BOB, 51, 2), 101));
    expect(events.flatMap((e) => (e.type === 'BOOK_LEVEL_CHANGED' ? [] : [[e.type, e.type === 'TRADE' ? e.maker.orderHash : e.orderHash]]))).toEqual([
      ['ORDER_CANCELLED', 'own'], ['ORDER_EXPIRED', 'old'], ['TRADE', 'a'], ['ORDER_UPDATED', 'a'], ['TRADE', 'b'], ['ORDER_UPDATED', 'b'], ['ORDER_UPDATED', 't'],
    ]);
  });

  it('when no cap is given, then an order takes MAX_MAKERS_PER_TAKER makers at most, and a restored engine keeps the cap it is given', () => {
    const engine = newEngine();
    seed(engine, Array.from({ length: MAX_MAKERS_PER_TAKER + 1 }, (_, i) => sellYes(`s${i}`, i % 2 ? ALICE : CAROL, 50, 1)));
    const copy = Engine.restore(engine.snapshot(), { maxMakersPerTaker: 2 });
    expect(tradesOf(engine.place(buyYes('t', BOB, 50, MAX_MAKERS_PER_TAKER + 1), 101))).toHaveLength(MAX_MAKERS_PER_TAKER);
    expect(engine.restingHashes()).toEqual([`s${MAX_MAKERS_PER_TAKER}`]);
    expect(tradesOf(copy.place(buyYes('t', BOB, 50, 5), 101))).toHaveLength(2);
    expect(tradesOf(Engine.restore(copy.snapshot(), { maxMakersPerTaker: Number.POSITIVE_INFINITY }).place(buyYes('u', DAVE, 50, 70), 102))).toHaveLength(MAX_MAKERS_PER_TAKER - 1);
  });

  it('when the cap is not a positive integer or Infinity, then the engine refuses it', () => {
    for (const cap of [0, -1, 1.5, Number.NaN]) expectEngineError(() => capped(cap), 'INVALID_ORDER');
  });
});

describe('MARKET orders', () => {
  it('when a MARKET BUY meets a price beyond its worst price, then it stops and the remainder is cancelled', () => {
    const engine = newEngine();
    seed(engine, [sellYes('a', ALICE, 55, 3), sellYes('b', CAROL, 60, 3)]);
    const events = step(engine, engine.place(buyYes('m1', BOB, 58, 5, { orderType: 'MARKET' }), 101));
    expect(typesOf(events)).toEqual(['TRADE', 'ORDER_UPDATED', 'ORDER_CANCELLED', 'BOOK_LEVEL_CHANGED']);
    expect(strip(events)[2]).toEqual({ type: 'ORDER_CANCELLED', orderHash: 'm1', reason: 'MARKET_REMAINDER', status: 'CANCELLED', remaining: shares(2), filled: shares(3) });
    expect(engine.order('m1')).toBeUndefined();
    expect(engine.depth()).toMatchObject({ bids: [], asks: [{ price: 60, remaining: shares(3) }] });
  });

  it('when a MARKET order is fully matched, then it ends MATCHED', () => {
    const engine = newEngine();
    seed(engine, [buyYes('a', ALICE, 40, 3)]);
    const events = step(engine, engine.place(sellYes('m1', BOB, 30, 3, { orderType: 'MARKET' }), 101));
    expect(strip(events)[2]).toEqual({ type: 'ORDER_UPDATED', orderHash: 'm1', status: 'MATCHED', remaining: 0n, filled: shares(3) });
    expect(events[0]).toMatchObject({ yesPrice: 40, taker: { price: 40 } });
  });

  it('when a MARKET order meets an empty book, then it is cancelled whole and the book does not change', () => {
    const engine = newEngine();
    const events = step(engine, engine.place(buyNo('m1', BOB, 90, 1, { orderType: 'MARKET' }), 101));
    expect(strip(events)).toEqual([{ type: 'ORDER_CANCELLED', orderHash: 'm1', reason: 'MARKET_REMAINDER', status: 'CANCELLED', remaining: shares(1), filled: 0n }]);
    expect(engine.depth()).toEqual({ seq: 0, bids: [], asks: [] });
  });
});

describe('taker restriction', () => {
  it('when a resting order is restricted to another counterparty, then others skip it and it keeps its queue place', () => {
    const engine = newEngine();
    seed(engine, [sellYes('r1', ALICE, 50, 5, { taker: CAROL }), sellYes('r2', BOB, 50, 5)]);
    const first = step(engine, engine.place(buyYes('d', DAVE, 50, 5), 101));
    expect(first[0]).toMatchObject({ type: 'TRADE', maker: { orderHash: 'r2' } });
    expect(engine.depth().asks).toEqual([{ price: 50, remaining: shares(5) }]);
    const second = step(engine, engine.place(buyYes('c', CAROL, 50, 2), 102));
    expect(second[0]).toMatchObject({ type: 'TRADE', maker: { orderHash: 'r1' }, taker: { orderHash: 'c' } });
  });

  it('when an incoming order is restricted, then it only matches that maker and may rest in a crossed-looking book', () => {
    const engine = newEngine();
    seed(engine, [sellYes('x', ALICE, 50, 2), sellYes('y', BOB, 52, 2)]);
    const events = step(engine, engine.place(buyYes('d', DAVE, 55, 3, { taker: BOB.toUpperCase().replace('0X', '0x') }), 101));
    expect(events.filter((e) => e.type === 'TRADE').map((t) => t.maker.orderHash)).toEqual(['y']);
    expect(engine.depth()).toMatchObject({ bids: [{ price: 55, remaining: shares(1) }], asks: [{ price: 50, remaining: shares(2) }] });
    expect(engine.bestBid()).toBeGreaterThan(engine.bestAsk()!);
  });
});

describe('self-trade prevention', () => {
  it('when an order would match its own maker resting order, then the resting order is cancelled and matching goes on', () => {
    const engine = newEngine();
    seed(engine, [sellYes('own', ALICE, 50, 2), sellYes('other', BOB, 50, 1)]);
    const events = step(engine, engine.place(buyYes('b', ALICE, 55, 3), 101));
    expect(strip(events).slice(0, 2)).toEqual([
      { type: 'ORDER_CANCELLED', orderHash: 'own', reason: 'SELF_TRADE', status: 'CANCELLED', remaining: shares(2), filled: 0n },
      expect.objectContaining({ type: 'TRADE', maker: expect.objectContaining({ orderHash: 'other' }) }),
    ]);
    expect(engine.depth()).toMatchObject({ bids: [{ price: 55, remaining: shares(2) }], asks: [] });
  });
});

describe('cancel and expiry', () => {
  it('when a resting order is cancelled, then it leaves the book once; a second cancel changes nothing', () => {
    const engine = seededBook();
    expect(strip(step(engine, engine.cancel('a1', 101)))).toEqual([
      { type: 'ORDER_CANCELLED', orderHash: 'a1', reason: 'USER', status: 'CANCELLED', remaining: shares(10), filled: 0n },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 7, side: 'ask', price: 60, remaining: shares(5) },
    ]);
    expect(engine.cancel('a1', 102)).toEqual([]);
    expect(engine.cancel('nope', 102)).toEqual([]);
  });

  it('when cancelAll has a filter, then only that maker side and outcome are cancelled, oldest first', () => {
    const engine = seededBook();
    const events = step(engine, engine.cancelAll(101, { maker: ALICE.toUpperCase().replace('0X', '0x'), outcome: 1 }, 'MARKET_CLOSED'));
    expect(strip(events)).toEqual([
      { type: 'ORDER_CANCELLED', orderHash: 'a1', reason: 'MARKET_CLOSED', status: 'CANCELLED', remaining: shares(10), filled: 0n },
      { type: 'BOOK_LEVEL_CHANGED', bookSeq: 7, side: 'ask', price: 60, remaining: shares(5) },
    ]);
    expect(typesOf(engine.cancelAll(102))).toEqual([...Array(5).fill('ORDER_CANCELLED'), ...Array(4).fill('BOOK_LEVEL_CHANGED')]);
    expect(engine.depth()).toEqual({ seq: 8, bids: [], asks: [] });
  });

  it('when expiration is reached, then GTD and LIMIT-with-expiration orders expire, earliest first', () => {
    const engine = newEngine();
    seed(engine, [buyYes('g', ALICE, 40, 1, { orderType: 'GTD', expiration: 300 }), buyYes('l', BOB, 41, 1, { expiration: 200 }), buyYes('forever', CAROL, 42, 1)]);
    expect(engine.nextExpiration()).toBe(200);
    expect(engine.expire(199)).toEqual([]);
    expect(typesOf(step(engine, engine.expire(200)))).toEqual(['ORDER_EXPIRED', 'BOOK_LEVEL_CHANGED']);
    expect(engine.nextExpiration()).toBe(300);
    expect(engine.expireOrder('g', 299)).toEqual([]);
    expect(strip(step(engine, engine.expireOrder('g', 300)))[0]).toEqual({ type: 'ORDER_EXPIRED', orderHash: 'g', status: 'EXPIRED', remaining: shares(1), filled: 0n });
    expect(engine.nextExpiration()).toBeNull();
    expect(engine.depth().bids).toEqual([{ price: 42, remaining: shares(1) }]);
  });

  it('when an incoming order is already expired, then it is EXPIRED without touching the book', () => {
    const engine = seededBook();
    expect(strip(engine.place(buyYes('late', BOB, 99, 1, { orderType: 'GTD', expiration: 100 }), 100))).toEqual([
      { type: 'ORDER_EXPIRED', orderHash: 'late', status: 'EXPIRED', remaining: shares(1), filled: 0n },
    ]);
    expect(engine.depth().asks[0]).toEqual({ price: 55, remaining: shares(4) });
  });

  it('when a cancel arrives after the order expired, then the order is reported EXPIRED', () => {
    const engine = newEngine();
    seed(engine, [buyYes('g', ALICE, 40, 1, { orderType: 'GTD', expiration: 300 })]);
    expect(typesOf(engine.cancel('g', 300))).toEqual(['ORDER_EXPIRED', 'BOOK_LEVEL_CHANGED']);
  });
});

describe('input validation', () => {
  it.each([
    ['tick 0', 'INVALID_PRICE', { price: 0 }],
    ['tick 101', 'INVALID_PRICE', { price: 101 }],
    ['sub-tick', 'INVALID_PRICE', { price: 50.5 }],
    ['zero size', 'INVALID_SIZE', { size: 0n }],
    ['size below one lot', 'INVALID_SIZE', { size: 99n, ...signedAmounts('BUY', 99n, 50) }],
    ['negative size', 'INVALID_SIZE', { size: -100n, makerAmount: -50n, takerAmount: -100n }],
    ['GTD without expiration', 'INVALID_ORDER', { orderType: 'GTD' as const, expiration: 0 }],
  ])('when the order has %s, then place throws %s', (_name, code, patch) => {
    const engine = newEngine();
    const good = buyYes('h', ALICE, 50, 1);
    expectEngineError(() => engine.place({ ...good, ...patch }, 1), code);
    expect(engine.depth().bids).toEqual([]);
  });

  it('when signed amounts drift from price and size, then place throws DRIFTED_AMOUNTS', () => {
    const good = buyYes('h', ALICE, 50, 1);
    expectEngineError(() => newEngine().place({ ...good, makerAmount: good.makerAmount - 1n }, 1), 'DRIFTED_AMOUNTS');
  });

  it('when a hash is already resting or time is bad, then the engine throws', () => {
    const engine = seededBook();
    expectEngineError(() => engine.place(sellYes('a1', ALICE, 60, 1), 101), 'DUPLICATE_ORDER');
    expectEngineError(() => engine.expire(-1), 'INVALID_TIME');
    expectEngineError(() => engine.cancel('a1', 1.5), 'INVALID_TIME');
    expect(() => new Engine({ marketId: '' })).toThrow(EngineError);
  });
});

describe('snapshot and invariants', () => {
  it('when an engine is snapshotted, then the snapshot is plain JSON and a restored engine behaves identically', () => {
    const engine = seededBook();
    engine.place(buyYes('p', DAVE, 60, 6, { expiration: 500 }), 101);
    const snap = engine.snapshot();
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
    const copy = Engine.restore(JSON.parse(JSON.stringify(snap)));
    copy.assertInvariants();
    expect(copy.depth()).toEqual(engine.depth());
    expect(copy.nextExpiration()).toBe(engine.nextExpiration());
    const next = [sellNo('q', BOB, 45, 9), buyYes('r', CAROL, 99, 20)];
    for (const o of next) expect(copy.place(o, 102)).toEqual(engine.place(o, 102));
    expect(copy.snapshot()).toEqual(engine.snapshot());
  });

  it('when a snapshot holds a matchable crossed book or broken sizes, then restore throws INVALID_SNAPSHOT', () => {
    const snap = seededBook().snapshot();
    const crossed = { ...snap, orders: [...snap.orders, { ...snap.orders[0], hash: 'x', maker: BOB, side: 'BUY' as const, price: 70, makerAmount: '7000000', takerAmount: '10000000', arrival: snap.arrival + 1 }], arrival: snap.arrival + 1 };
    expectEngineError(() => Engine.restore(crossed), 'INVALID_SNAPSHOT');
    const broken = { ...snap, orders: snap.orders.map((o, i) => (i === 0 ? { ...o, filled: '1' } : o)) };
    expectEngineError(() => Engine.restore(broken), 'INVALID_SNAPSHOT');
    expectEngineError(() => Engine.restore({ ...snap, version: 2 }), 'INVALID_SNAPSHOT');
  });

  it('when a level total is corrupted, then assertInvariants throws INVARIANT_VIOLATED', () => {
    const engine = seededBook();
    engine.asks.level(60)!.total += 1n;
    expectEngineError(() => engine.assertInvariants(), 'INVARIANT_VIOLATED');
  });

  it('when FIFO order inside a level is broken, then assertInvariants throws', () => {
    const engine = seededBook();
    const level = engine.asks.level(60)!;
    level.head!.arrival = 99;
    expectEngineError(() => engine.assertInvariants(), 'INVARIANT_VIOLATED');
  });
});

it('uses the zero address constant for open orders', () => {
  expect(order({ hash: 'z', maker: ALICE, side: 'BUY', outcome: 1, price: 1, size: 100n }).taker).toBe(ZERO_ADDRESS);
});
