/**
 * Lot fills of orders whose size is not a lot multiple (docs/engine.md, "Lots and dust"): the
 * engine produces the trades, `matchSubmissionFromTrades` turns them into a match, and every
 * balance moves by exactly the engine's amounts, to the wei. Before the contract took both amounts
 * of each leg, a resting BUY with S*T % 100 != 0 received up to 98 token wei less than its fill.
 */
import { matchSubmissionFromTrades, type SettlementTrade } from '../../src/chain';
import { Engine, signedAmounts, ZERO_ADDRESS, type EngineEvent, type EngineOrder } from '../../src/engine';
import { parseUnitsStrict } from '../../src/money';
import type { SignedOrder } from '../../src/signing';
import type { DevAccount } from '../../src/chain';
import { E18, FEE_BPS, startFixture, type Fixture } from './chain-fixture';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.stop();
});

interface Spec { side: 'BUY' | 'SELL'; outcome: 0 | 1; price: string; size: string }
type Signed = SignedOrder & { hash: `0x${string}` };
type Trade = Extract<EngineEvent, { type: 'TRADE' }>;

/** Signs the order and gives the engine the same order (same hash, same signed amounts). */
function place(trader: DevAccount, spec: Spec): { signed: Signed; engine: EngineOrder } {
  const signed = fx.sign(trader, spec);
  const size = parseUnitsStrict(spec.size, 18);
  const price = Math.round(Number(spec.price) * 100);
  const amounts = signedAmounts(spec.side, size, price);
  expect(amounts).toEqual({ makerAmount: signed.makerAmount, takerAmount: signed.takerAmount });
  return {
    signed,
    engine: {
      hash: signed.hash, maker: trader.address, taker: ZERO_ADDRESS, side: spec.side, outcome: spec.outcome, orderType: 'LIMIT',
      price, size, ...amounts, expiration: 0, feeRateBps: FEE_BPS,
    },
  };
}

/** Rests the makers, sends the taker into the engine, settles its trades on chain; returns the trades. */
async function settle(makers: [DevAccount, Spec][], taker: [DevAccount, Spec]) {
  const engine = new Engine({ marketId: 'nonlot' });
  const orders = new Map<string, Signed>();
  for (const [trader, spec] of makers) {
    const { signed, engine: order } = place(trader, spec);
    orders.set(signed.hash, signed);
    expect(engine.place(order, 1).filter((e) => e.type === 'TRADE')).toHaveLength(0);
  }
  const incoming = place(taker[0], taker[1]);
  orders.set(incoming.signed.hash, incoming.signed);
  const trades = engine.place(incoming.engine, 1).filter((e): e is Trade => e.type === 'TRADE');
  expect(trades.length).toBeGreaterThan(0);

  // What the engine says every wallet must see, per leg: tokens +-size, collateral -+(collateral) - fee.
  const expected = new Map<string, { collateral: bigint; yes: bigint; no: bigint }>();
  const add = (address: string, d: { collateral: bigint; yes: bigint; no: bigint }) => {
    const cur = expected.get(address) ?? { collateral: 0n, yes: 0n, no: 0n };
    expected.set(address, { collateral: cur.collateral + d.collateral, yes: cur.yes + d.yes, no: cur.no + d.no });
  };
  let fees = 0n;
  for (const trade of trades) {
    for (const leg of [trade.maker, trade.taker]) {
      const sign = leg.side === 'BUY' ? 1n : -1n;
      add(leg.maker, {
        collateral: -sign * leg.collateral - leg.fee,
        yes: leg.outcome === 1 ? sign * leg.size : 0n,
        no: leg.outcome === 0 ? sign * leg.size : 0n,
      });
      fees += leg.fee;
    }
  }
  const addresses = [...expected.keys(), fx.operator.address] as `0x${string}`[];
  const before = await Promise.all(addresses.map((a) => fx.balances(a)));

  const submission = matchSubmissionFromTrades(trades satisfies SettlementTrade[], (hash) => {
    const { hash: _h, ...order } = orders.get(hash)!;
    return order;
  });
  await fx.match(submission.taker, submission.makers, submission.takerFill, submission.makerFills);

  const after = await Promise.all(addresses.map((a) => fx.balances(a)));
  const moved = after.map((b, i) => ({ collateral: b.collateral - before[i].collateral, yes: b.yes - before[i].yes, no: b.no - before[i].no }));
  expect(moved.slice(0, -1)).toEqual([...expected.values()]);
  expect(moved.at(-1)).toEqual({ collateral: fees, yes: 0n, no: 0n });

  // On chain each order has exactly its signed maker amount minus what it gave left.
  const gave = new Map<string, bigint>();
  for (const trade of trades) {
    for (const leg of [trade.maker, trade.taker]) {
      gave.set(leg.orderHash, (gave.get(leg.orderHash) ?? 0n) + (leg.side === 'BUY' ? leg.collateral : leg.size));
    }
  }
  for (const [hash, given] of gave) {
    const remaining = orders.get(hash)!.makerAmount - given;
    expect(await fx.port.orderStatus(hash as `0x${string}`)).toMatchObject({ filledOrCancelled: remaining === 0n, remaining });
  }
  return trades;
}

describe('lot fills of non-lot orders settle exactly', () => {
  it('when a resting BUY YES @0.37 of 1.000000000000000001 meets SELL YES @0.37 of 1, then the buyer gets all 1e18 tokens (was 1e18 - 1)', async () => {
    const [, , , , erin, frank] = fx.traders;
    const [trade] = await settle([[erin, { side: 'BUY', outcome: 1, price: '0.37', size: '1.000000000000000001' }]], [frank, { side: 'SELL', outcome: 1, price: '0.37', size: '1' }]);
    expect(trade).toMatchObject({ kind: 'TRANSFER', size: E18, maker: { collateral: (37n * E18) / 100n } });
  });

  it('when a resting BUY YES @0.01 of 0.100000000000000001 meets SELL YES @0.01 of 0.1, then the buyer gets all 1e17 tokens (was 1e17 - 98)', async () => {
    const [, , , , erin, frank] = fx.traders;
    const [trade] = await settle([[erin, { side: 'BUY', outcome: 1, price: '0.01', size: '0.100000000000000001' }]], [frank, { side: 'SELL', outcome: 1, price: '0.01', size: '0.1' }]);
    expect(trade).toMatchObject({ kind: 'TRANSFER', size: E18 / 10n, maker: { collateral: E18 / 1000n } });
  });

  it('when a resting BUY NO @0.37 of 1.000000000000000001 meets BUY YES @0.63 of 1, then exactly 1e18 pairs are minted and paid 0.37 + 0.63', async () => {
    const [, , , , erin, frank] = fx.traders;
    const [trade] = await settle([[erin, { side: 'BUY', outcome: 0, price: '0.37', size: '1.000000000000000001' }]], [frank, { side: 'BUY', outcome: 1, price: '0.63', size: '1' }]);
    expect(trade).toMatchObject({ kind: 'MINT', size: E18, maker: { collateral: (37n * E18) / 100n }, taker: { collateral: (63n * E18) / 100n } });
  });

  it('when a resting SELL NO @0.37 of 1.000000000000000001 meets SELL YES @0.63 of 1, then exactly 1e18 pairs are merged', async () => {
    const [, , , , erin, frank] = fx.traders;
    const [trade] = await settle([[erin, { side: 'SELL', outcome: 0, price: '0.37', size: '1.000000000000000001' }]], [frank, { side: 'SELL', outcome: 1, price: '0.63', size: '1' }]);
    expect(trade).toMatchObject({ kind: 'MERGE', size: E18 });
  });

  it('when a non-lot BUY YES taker sweeps a non-lot seller and a non-lot NO buyer, then both legs settle exactly and the taker keeps 1 wei of dust', async () => {
    const [alice, bob, carol] = fx.traders;
    const trades = await settle(
      [
        [alice, { side: 'SELL', outcome: 1, price: '0.36', size: '0.500000000000000001' }],
        [bob, { side: 'BUY', outcome: 0, price: '0.63', size: '0.700000000000000033' }], // a YES ask at 0.37
      ],
      [carol, { side: 'BUY', outcome: 1, price: '0.37', size: '1.000000000000000001' }],
    );
    expect(trades.map((t) => [t.kind, t.size])).toEqual([['TRANSFER', E18 / 2n], ['MINT', E18 / 2n]]);
  });
});

describe('matchSubmissionFromTrades', () => {
  const leg = (orderHash: string, side: 'BUY' | 'SELL', size: bigint, collateral: bigint) => ({ orderHash, side, size, collateral });

  it('when trades of one taker are given, then one maker leg per trade and the taker fill is their sum', () => {
    const order = (hash: string) => ({ hash }) as unknown as SignedOrder;
    const submission = matchSubmissionFromTrades([
      { kind: 'TRANSFER', size: 100n, maker: leg('m1', 'SELL', 100n, 37n), taker: leg('t', 'BUY', 100n, 37n) },
      { kind: 'MINT', size: 200n, maker: leg('m2', 'BUY', 200n, 124n), taker: leg('t', 'BUY', 200n, 76n) },
    ], order);
    expect(submission).toEqual({
      taker: order('t'), makers: [order('m1'), order('m2')],
      takerFill: { making: 113n, taking: 300n }, makerFills: [{ making: 100n, taking: 37n }, { making: 124n, taking: 200n }],
    });
  });

  it('when the trades have two takers or do not conserve assets, then RangeError', () => {
    const order = () => ({}) as SignedOrder;
    expect(() => matchSubmissionFromTrades([], order)).toThrow(RangeError);
    expect(() => matchSubmissionFromTrades([
      { kind: 'TRANSFER', size: 100n, maker: leg('m1', 'SELL', 100n, 37n), taker: leg('t1', 'BUY', 100n, 37n) },
      { kind: 'TRANSFER', size: 100n, maker: leg('m2', 'SELL', 100n, 37n), taker: leg('t2', 'BUY', 100n, 37n) },
    ], order)).toThrow(/two takers/);
    expect(() => matchSubmissionFromTrades([
      { kind: 'TRANSFER', size: 100n, maker: leg('m', 'SELL', 100n, 37n), taker: leg('t', 'BUY', 100n, 38n) },
    ], order)).toThrow(/conserve/);
    expect(() => matchSubmissionFromTrades([
      { kind: 'MINT', size: 100n, maker: leg('m', 'BUY', 100n, 37n), taker: leg('t', 'BUY', 100n, 62n) },
    ], order)).toThrow(/conserve/);
  });
});
