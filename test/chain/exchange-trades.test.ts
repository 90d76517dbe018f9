/** Happy paths of the four trade kinds (decisions section 2) with exact balance changes and fees. */
import { orderFillFor, sumFills } from '../../src/chain';
import { E18, startFixture, withoutHash, type Fixture } from './chain-fixture';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.stop();
});

/** decisions section 3 at 100 bps: 1% * min(p, 1-p) * size, all in collateral wei. */
const fee = (sizeShares: bigint, ticks: bigint) => (100n * (ticks < 100n - ticks ? ticks : 100n - ticks) * sizeShares * E18) / 1_000_000n;

async function changes(addresses: `0x${string}`[], run: () => Promise<void>) {
  const before = await Promise.all(addresses.map((a) => fx.balances(a)));
  await run();
  const after = await Promise.all(addresses.map((a) => fx.balances(a)));
  return after.map((b, i) => ({
    collateral: b.collateral - before[i].collateral, yes: b.yes - before[i].yes, no: b.no - before[i].no,
  }));
}

describe('matchOrders: the four trade kinds', () => {
  it('when BUY YES (taker) meets SELL YES (maker), then tokens and collateral transfer at the maker price, both pay fees', async () => {
    const [alice, bob] = fx.traders;
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    const maker = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' });
    const [a, b, feeTo] = await changes([alice.address, bob.address, fx.operator.address], () =>
      fx.match(taker, [maker], orderFillFor('BUY', 10n * E18, 55), [orderFillFor('SELL', 10n * E18, 55)]),
    );
    expect(a).toEqual({ collateral: -(55n * E18) / 10n - fee(10n, 55n), yes: 10n * E18, no: 0n });
    expect(b).toEqual({ collateral: (55n * E18) / 10n - fee(10n, 55n), yes: -10n * E18, no: 0n });
    expect(feeTo.collateral).toBe(2n * fee(10n, 55n));
    expect(await fx.port.orderStatus(taker.hash)).toMatchObject({ filledOrCancelled: false, remaining: E18 / 2n });
    expect(await fx.port.orderStatus(maker.hash)).toEqual({ filledOrCancelled: true, cancelled: false, remaining: 0n });
  });

  it('when SELL NO (taker) meets BUY NO (maker), then the seller gets the maker price minus its fee', async () => {
    const [, bob, carol] = fx.traders;
    const taker = fx.sign(bob, { side: 'SELL', outcome: 0, price: '0.3', size: '4' });
    const maker = fx.sign(carol, { side: 'BUY', outcome: 0, price: '0.35', size: '4' });
    const [b, c] = await changes([bob.address, carol.address], () =>
      fx.match(taker, [maker], orderFillFor('SELL', 4n * E18, 35), [orderFillFor('BUY', 4n * E18, 35)]),
    );
    expect(b).toEqual({ collateral: (14n * E18) / 10n - fee(4n, 35n), yes: 0n, no: -4n * E18 });
    expect(c).toEqual({ collateral: -(14n * E18) / 10n - fee(4n, 35n), yes: 0n, no: 4n * E18 });
  });

  it('when BUY YES meets BUY NO, then a complete set is minted: each pays its side and gets its token', async () => {
    const [alice, , carol] = fx.traders;
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    const maker = fx.sign(carol, { side: 'BUY', outcome: 0, price: '0.45', size: '10' });
    const [a, c] = await changes([alice.address, carol.address], () =>
      fx.match(taker, [maker], orderFillFor('BUY', 10n * E18, 55), [orderFillFor('BUY', 10n * E18, 45)]),
    );
    // The taker gets the improvement: YES costs 1 - 0.45 = 0.55, not its limit 0.60.
    expect(a).toEqual({ collateral: -(55n * E18) / 10n - fee(10n, 55n), yes: 10n * E18, no: 0n });
    expect(c).toEqual({ collateral: -(45n * E18) / 10n - fee(10n, 45n), yes: 0n, no: 10n * E18 });
  });

  it('when SELL YES meets SELL NO, then the pair is merged and the collateral shared at the maker price', async () => {
    const [, bob, , dave] = fx.traders;
    const taker = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.5', size: '10' });
    const maker = fx.sign(dave, { side: 'SELL', outcome: 0, price: '0.45', size: '10' });
    const [b, d] = await changes([bob.address, dave.address], () =>
      fx.match(taker, [maker], orderFillFor('SELL', 10n * E18, 55), [orderFillFor('SELL', 10n * E18, 45)]),
    );
    expect(b).toEqual({ collateral: (55n * E18) / 10n - fee(10n, 55n), yes: -10n * E18, no: 0n });
    expect(d).toEqual({ collateral: (45n * E18) / 10n - fee(10n, 45n), yes: 0n, no: -10n * E18 });
  });

  it('when one taker meets a transfer maker and a mint maker, then both legs settle and a partial maker keeps its remainder', async () => {
    const [alice, bob, carol] = fx.traders;
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    const seller = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '4' });
    const noBuyer = fx.sign(carol, { side: 'BUY', outcome: 0, price: '0.42', size: '10' });
    const [a, b, c] = await changes([alice.address, bob.address, carol.address], () =>
      fx.match(taker, [seller, noBuyer], sumFills([orderFillFor('BUY', 4n * E18, 55), orderFillFor('BUY', 6n * E18, 58)]), [
        orderFillFor('SELL', 4n * E18, 55), orderFillFor('BUY', 6n * E18, 42),
      ]),
    );
    expect(a).toEqual({ collateral: -(22n * E18) / 10n - (348n * E18) / 100n - fee(4n, 55n) - fee(6n, 58n), yes: 10n * E18, no: 0n });
    expect(b).toEqual({ collateral: (22n * E18) / 10n - fee(4n, 55n), yes: -4n * E18, no: 0n });
    expect(c).toEqual({ collateral: -(252n * E18) / 100n - fee(6n, 42n), yes: 0n, no: 6n * E18 });
    expect(await fx.port.orderStatus(noBuyer.hash)).toMatchObject({ filledOrCancelled: false, remaining: (168n * E18) / 100n });
  });

  it('when a condition resolves YES, then YES holders redeem 1 collateral per token and NO pays nothing', async () => {
    const [alice] = fx.traders;
    const before = await fx.balances(alice.address);
    await fx.port.reportPayouts(fx.condition.questionId, 1);
    await fx.port.reportPayouts(fx.condition.questionId, 1); // idempotent
    const wallet = fx.walletOf(alice);
    const { conditionalTokensAbi } = await import('../../src/chain/generated');
    const hash = await wallet.writeContract({
      address: fx.local.addresses.conditionalTokens, abi: conditionalTokensAbi, functionName: 'redeemPositions',
      args: [fx.local.addresses.collateral, fx.condition.conditionId],
    });
    await fx.port.waitForReceipt(hash, 0);
    const after = await fx.balances(alice.address);
    expect(after).toEqual({ collateral: before.collateral + before.yes, yes: 0n, no: 0n });
  });
});

describe('finding the match of a taker', () => {
  it('when an order was matched as taker, then its match transaction is found; a maker or an unmatched order finds none', async () => {
    const [alice, bob] = fx.traders;
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '1' });
    const maker = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '1' });
    const idle = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.1', size: '1' });
    expect(await fx.port.findMatchOfTaker(taker.hash)).toBeNull();
    const txHash = await fx.port.submitMatch({
      taker: withoutHash(taker), makers: [withoutHash(maker)], takerFill: orderFillFor('BUY', E18, 55), makerFills: [orderFillFor('SELL', E18, 55)],
    });
    await fx.port.waitForReceipt(txHash, 0);
    expect(await fx.port.findMatchOfTaker(taker.hash)).toBe(txHash);
    expect(await fx.port.findMatchOfTaker(maker.hash)).toBeNull();
    expect(await fx.port.findMatchOfTaker(idle.hash)).toBeNull();
  });
});
