/**
 * A property over random trade sequences on the pool contract: the product of the pool's balances
 * never falls, the pool never pays out more collateral than it takes in (its collateral is exactly
 * its collected fees), and each trade moves the balances the TypeScript port predicts.
 */
import fc from 'fast-check';
import { ammPoolAbi } from '../../src/chain/generated';
import { balancesAfterBuy, balancesAfterSell, calcBuyAmount, sellReturnFor } from '../../src/amm/pool-math';
import { E18, startPoolFixture, type PoolFixture } from '../amm/pool-fixture';

let fx: PoolFixture;
beforeAll(async () => {
  fx = await startPoolFixture({ feeBps: 150, liquidity: 300n * E18, traderFunds: 100_000n * E18 });
});
afterAll(async () => {
  await fx.stop();
});

const tradeArb = fc.record({
  trader: fc.integer({ min: 0, max: 3 }),
  outcome: fc.constantFrom<0 | 1>(0, 1),
  buy: fc.boolean(),
  // A buy's collateral from 1 wei to ~500 collateral; a sell's share of the trader's holding in 1/1000s.
  amount: fc.bigInt({ min: 1n, max: 500n * E18 }),
  fraction: fc.integer({ min: 1, max: 1000 }),
});

it('when random buys and sells run, then the balance product never falls and collateral out never exceeds collateral in', async () => {
  const feeBps = BigInt(fx.feeBps);
  let paidIn = 0n;
  let paidOut = 0n;
  await fc.assert(
    fc.asyncProperty(fc.array(tradeArb, { minLength: 1, maxLength: 6 }), async (trades) => {
      for (const t of trades) {
        const trader = fx.traders[t.trader];
        const before = await fx.state();
        let expected: readonly [bigint, bigint];
        if (t.buy) {
          const bought = calcBuyAmount(before.balances, feeBps, t.amount, t.outcome);
          if (bought === 0n) continue;
          await fx.send(trader, { address: fx.pool, abi: ammPoolAbi, functionName: 'buy', args: [t.amount, BigInt(t.outcome), bought] });
          expected = balancesAfterBuy(before.balances, feeBps, t.amount, t.outcome);
          paidIn += t.amount;
        } else {
          const held = (await fx.balances(trader.address))[t.outcome === 1 ? 'yes' : 'no'];
          const shares = (held * BigInt(t.fraction)) / 1000n;
          const returnAmount = sellReturnFor(before.balances, feeBps, shares, t.outcome);
          if (returnAmount === 0n) continue;
          await fx.send(trader, { address: fx.pool, abi: ammPoolAbi, functionName: 'sell', args: [returnAmount, BigInt(t.outcome), shares] });
          expected = balancesAfterSell(before.balances, feeBps, returnAmount, t.outcome);
          paidOut += returnAmount;
        }
        const after = await fx.state();
        expect(after.balances).toEqual(expected);
        expect(after.balances[0] * after.balances[1]).toBeGreaterThanOrEqual(before.balances[0] * before.balances[1]);
        expect((await fx.balances(fx.pool)).collateral).toBe(after.collectedFees);
        // What traders took out is covered by what they put in plus the operator's funding.
        expect(paidOut).toBeLessThanOrEqual(paidIn + 300n * E18);
      }
    }),
    { numRuns: 25, seed: 37 },
  );
});
