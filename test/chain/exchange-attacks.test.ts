/** What a hostile trader (or a buggy operator) would try; every one must revert with its reason. */
import { encodeFunctionData } from 'viem';
import { ChainRevertError, createChainPort, orderFillFor } from '../../src/chain';
import { matchGasLimit } from '../../src/chain/submit-matches';
import { collateralAbi, conditionalTokensAbi, contractWalletAbi, contractWalletBytecode, exchangeAbi } from '../../src/chain/generated';
import { createChainSettlement } from '../../src/settlement/viem-settlement-port';
import { orderDigest, signDigest } from '../../src/signing';
import { E18, startFixture, withoutHash, type Fixture } from './chain-fixture';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.stop();
});

const TEN = 10n * E18;
/** The fills of `pair()` trading all 10 shares at the maker's 0.55. */
const BUY_10 = orderFillFor('BUY', TEN, 55);
const SELL_10 = orderFillFor('SELL', TEN, 55);

async function expectRevert(run: Promise<unknown>, reason: string) {
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ChainRevertError);
  expect((error as ChainRevertError).reason).toBe(reason);
}

/** A fresh BUY YES taker / SELL YES maker pair that would match at 0.55. */
function pair(overrides: { taker?: Parameters<Fixture['sign']>[2]; maker?: Parameters<Fixture['sign']>[2] } = {}) {
  const [alice, bob] = fx.traders;
  return {
    taker: fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' }, overrides.taker),
    maker: fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' }, overrides.maker),
  };
}

describe('matchOrders refuses', () => {
  it('when a filled order is replayed, then "order filled or cancelled"', async () => {
    const { taker, maker } = pair();
    await fx.match(taker, [maker], BUY_10, [SELL_10]);
    const again = fx.sign(fx.traders[0], { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(again, [maker], BUY_10, [SELL_10]), 'Exchange: order filled or cancelled');
  });

  it('when a match is sent again whose BUY taker bought below its limit (collateral left for a copy), then "taker already matched"', async () => {
    const [alice, bob] = fx.traders;
    // BUY 5 @0.60 signs 3 collateral; 5 shares at the maker's 0.25 cost 1.25, leaving 1.75 on chain.
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '5' });
    const maker = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.25', size: '10' });
    const fills = [orderFillFor('BUY', 5n * E18, 25), [orderFillFor('SELL', 5n * E18, 25)]] as const;
    const before = await fx.balances(alice.address);
    await fx.match(taker, [maker], ...fills);
    // The copy fits both orders' remaining amounts: only the taker's record refuses it.
    await expectRevert(fx.match(taker, [maker], ...fills), 'Exchange: taker already matched');
    const after = await fx.balances(alice.address);
    expect(after.yes - before.yes).toBe(5n * E18);
  });

  it('when the taker record is written, then it costs no storage write of its own: a match that leaves its BUY taker collateral on chain costs what one that fills the taker does', async () => {
    // Traders whose tokens no other test here sells.
    const [, , , alice, , bob] = fx.traders;
    const gasOf = async (takerPrice: string) => {
      const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: takerPrice, size: '5' });
      const maker = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '5' });
      const hash = await fx.port.submitMatch({
        taker: withoutHash(taker), makers: [withoutHash(maker)], takerFill: orderFillFor('BUY', 5n * E18, 55), makerFills: [orderFillFor('SELL', 5n * E18, 55)],
      });
      return (await fx.port.waitForReceipt(hash, 0)).gasUsed;
    };
    await gasOf('0.55'); // first writes of the run (the fee recipient's balance) out of the way
    const fills = await gasOf('0.55'); // the taker's whole collateral: filled on chain
    const leaves = await gasOf('0.6'); // 0.25 collateral left: the record is what refuses a copy
    // With `remaining` in a slot of its own, the record was a second slot's write: +19.8k gas.
    expect(leaves - fills).toBeLessThan(5_000n);
  });

  it('when a maker or the taker is filled beyond its size, at once or over two matches, then "fill exceeds remaining"', async () => {
    const [alice] = fx.traders;
    const { maker } = pair();
    const bigBuyer = () => fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '20' });
    const at55 = (shares: bigint) => [orderFillFor('BUY', shares * E18, 55), [orderFillFor('SELL', shares * E18, 55)]] as const;
    const taker = bigBuyer();
    await expectRevert(fx.match(taker, [maker], ...at55(11n)), 'Exchange: fill exceeds remaining');
    await fx.match(taker, [maker], ...at55(4n));
    const taker2 = bigBuyer();
    await expectRevert(fx.match(taker2, [maker], ...at55(7n)), 'Exchange: fill exceeds remaining');
    await fx.match(taker2, [maker], ...at55(6n));
    expect(await fx.port.orderStatus(maker.hash)).toEqual({ filledOrCancelled: true, cancelled: false, remaining: 0n });
    // The taker's own remaining: BUY 10 @0.60 signed 6 collateral; 11 shares at 0.55 cost 6.05.
    const bigSeller = fx.sign(fx.traders[1], { side: 'SELL', outcome: 1, price: '0.55', size: '20' });
    const smallBuyer = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(smallBuyer, [bigSeller], ...at55(11n)), 'Exchange: fill exceeds remaining');
  });

  it('when the taker\'s amounts are not exactly the sum of its sides of the legs, then "does not match the legs"', async () => {
    const { taker, maker } = pair();
    await expectRevert(fx.match(taker, [maker], { ...BUY_10, making: BUY_10.making + 1n }, [SELL_10]), 'Exchange: taker making does not match the legs');
    await expectRevert(fx.match(taker, [maker], { ...BUY_10, making: BUY_10.making - 1n }, [SELL_10]), 'Exchange: taker making does not match the legs');
    await expectRevert(fx.match(taker, [maker], { ...BUY_10, taking: BUY_10.taking - 1n }, [SELL_10]), 'Exchange: taker taking does not match the legs');
    // The seller gives 1 token wei less (its price only improves): the buyer would get tokens nobody gave.
    await expectRevert(
      fx.match(taker, [maker], BUY_10, [{ making: SELL_10.making - 1n, taking: SELL_10.taking }]),
      'Exchange: taker taking does not match the legs',
    );
    await fx.match(taker, [maker], BUY_10, [SELL_10]);
  });

  it('when an order is signed by someone other than its maker, or altered after signing, then "invalid signature"', async () => {
    const [alice, bob, carol] = fx.traders;
    const forged = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' });
    const carolSig = signDigest(orderDigest(forged, { chainId: 56, verifyingContract: fx.local.addresses.exchange }), carol.privateKey);
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(taker, [{ ...forged, signature: carolSig }], BUY_10, [SELL_10]), 'Exchange: invalid signature');
    await expectRevert(fx.match(taker, [{ ...forged, takerAmount: forged.takerAmount / 2n }], BUY_10, [SELL_10]), 'Exchange: invalid signature');
    const otherSigner = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' }, { signer: carol.address });
    await expectRevert(fx.match(taker, [otherSigner], BUY_10, [SELL_10]), 'Exchange: signer must be maker');
  });

  it('when the fill price is worse than the taker signed, for a transfer, a mint or a merge, then "price worse than signed"', async () => {
    const [alice, bob, carol, dave] = fx.traders;
    const lowBuyer = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.5', size: '10' });
    const seller = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' });
    // Inside every remaining, so only the price can be wrong: 5 YES for 2.75 is 0.55 > 0.50.
    const half = 5n * E18;
    await expectRevert(fx.match(lowBuyer, [seller], orderFillFor('BUY', half, 55), [orderFillFor('SELL', half, 55)]), 'Exchange: price worse than signed');
    const noBuyer = fx.sign(carol, { side: 'BUY', outcome: 0, price: '0.45', size: '10' }); // YES at 0.55
    await expectRevert(fx.match(lowBuyer, [noBuyer], orderFillFor('BUY', half, 55), [orderFillFor('BUY', half, 45)]), 'Exchange: price worse than signed');
    const highSeller = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.6', size: '10' });
    const noSeller = fx.sign(dave, { side: 'SELL', outcome: 0, price: '0.45', size: '10' }); // YES at 0.55
    await expectRevert(fx.match(highSeller, [noSeller], orderFillFor('SELL', TEN, 55), [orderFillFor('SELL', TEN, 45)]), 'Exchange: price worse than signed');
    const yesBuyer = fx.sign(carol, { side: 'BUY', outcome: 1, price: '0.55', size: '10' });
    await expectRevert(fx.match(highSeller, [yesBuyer], orderFillFor('SELL', TEN, 55), [orderFillFor('BUY', TEN, 55)]), 'Exchange: price worse than signed');
  });

  it('when the operator\'s amounts miss an order\'s signed ratio by one wei, maker or taker, then "price worse than signed"', async () => {
    const [alice, bob, carol, dave] = fx.traders;
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.55', size: '10' });
    const seller = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' });
    const exact = { taker: orderFillFor('BUY', TEN, 55), maker: orderFillFor('SELL', TEN, 55) };
    // Transfer, maker short: the seller gets 1 wei less collateral than it signed for (the buyer would gain it).
    await expectRevert(
      fx.match(taker, [seller], { making: exact.taker.making - 1n, taking: TEN }, [{ making: TEN, taking: exact.maker.taking - 1n }]),
      'Exchange: price worse than signed',
    );
    // Transfer, taker short: the buyer gets 1 token wei less for its collateral (the seller would keep it).
    await expectRevert(
      fx.match(taker, [seller], { making: exact.taker.making, taking: TEN - 1n }, [{ making: TEN - 1n, taking: exact.maker.taking }]),
      'Exchange: price worse than signed',
    );
    // Mint, maker short: the NO buyer pays 1 wei more than 0.45 for its 10 NO.
    const noBuyer = fx.sign(carol, { side: 'BUY', outcome: 0, price: '0.45', size: '10' });
    const mint = { taker: orderFillFor('BUY', TEN, 55), maker: orderFillFor('BUY', TEN, 45) };
    await expectRevert(
      fx.match(taker, [noBuyer], { making: mint.taker.making - 1n, taking: TEN }, [{ making: mint.maker.making + 1n, taking: TEN }]),
      'Exchange: price worse than signed',
    );
    // Merge, taker short: the YES seller at 0.55 receives 1 wei less than 5.5.
    const yesSeller = fx.sign(alice, { side: 'SELL', outcome: 1, price: '0.55', size: '10' });
    const noSeller = fx.sign(dave, { side: 'SELL', outcome: 0, price: '0.45', size: '10' });
    const merge = { taker: orderFillFor('SELL', TEN, 55), maker: orderFillFor('SELL', TEN, 45) };
    await expectRevert(
      fx.match(yesSeller, [noSeller], { making: TEN, taking: merge.taker.taking - 1n }, [{ making: TEN, taking: merge.maker.taking + 1n }]),
      'Exchange: price worse than signed',
    );
    // The exact amounts of the same orders settle.
    await fx.match(taker, [seller], exact.taker, [exact.maker]);
    await fx.match(yesSeller, [noSeller], merge.taker, [merge.maker]);
  });

  it('when a maker order is cancelled on chain by its maker, then matching it fails and the cancel is reported', async () => {
    const [alice, bob] = fx.traders;
    const { taker, maker } = pair();
    const { hash: _h, ...signedMaker } = maker;
    const call = fx.port.cancelOrderCalldata(signedMaker);
    expect(call).toMatchObject({ to: fx.local.addresses.exchange, chain_id: 56 });
    const from = await fx.port.getBlockNumber();
    await expectRevert(
      fx.walletOf(alice).sendTransaction({ to: call.to, data: call.data }).catch(rethrowMapped),
      'Exchange: not maker',
    );
    await fx.port.waitForReceipt(await fx.walletOf(bob).sendTransaction({ to: call.to, data: call.data }), 0);
    await expectRevert(fx.match(taker, [maker], BUY_10, [SELL_10]), 'Exchange: order filled or cancelled');
    expect(await fx.port.orderStatus(maker.hash)).toEqual({ filledOrCancelled: true, cancelled: true, remaining: 0n });
    const events = await fx.port.getCancelAndNonceEvents(from, await fx.port.getBlockNumber());
    expect(events).toEqual([expect.objectContaining({ type: 'OrderCancelled', orderHash: maker.hash, maker: bob.address })]);
  });

  it('when an order has expired, then "order expired"', async () => {
    const now = (await fx.port.context.publicClient.getBlock()).timestamp;
    const { taker, maker } = pair({ maker: { expiration: now + 60n } });
    await fx.rpc('evm_increaseTime', [120]);
    await fx.rpc('evm_mine');
    await expectRevert(fx.match(taker, [maker], BUY_10, [SELL_10]), 'Exchange: order expired');
  });

  it('when a batch transaction carries a match whose maker expired, then its receipt refuses that taker with "order expired", and the settlement port\'s chain time is past the expiration (what settlement reads to fail only that maker)', async () => {
    const settlement = createChainSettlement(() => fx.port, 0);
    const before = await settlement.chainTime(fx.local.chainId);
    expect(Math.abs(before - Date.now() / 1000)).toBeLessThan(3_600); // the chain's clock, near this machine's (earlier tests move it on)
    const { taker, maker } = pair({ maker: { expiration: BigInt(before + 60) } });
    await fx.rpc('evm_increaseTime', [120]);
    await fx.rpc('evm_mine');
    expect(await settlement.chainTime(fx.local.chainId)).toBeGreaterThanOrEqual(before + 120);
    const [hash] = await fx.port.submitMatchBatches([{ taker: withoutHash(taker), makers: [withoutHash(maker)], takerFill: BUY_10, makerFills: [SELL_10] }]);
    expect(typeof hash).toBe('string');
    expect(await settlement.getReceipt(fx.local.chainId, hash as string)).toMatchObject({
      status: 'success', matchedTakers: [], refusedTakers: [{ taker: taker.hash.toLowerCase(), reason: 'Exchange: order expired' }],
    });
  });

  it('when the maker bumped its nonce, then its old orders fail with "invalid nonce" and new ones match', async () => {
    const [alice, , , dave] = fx.traders;
    const from = await fx.port.getBlockNumber();
    const nonce = await fx.port.makerNonce(dave.address);
    const sell = (n: bigint) => fx.sign(dave, { side: 'SELL', outcome: 1, price: '0.55', size: '10' }, { nonce: n });
    const buy = () => fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    const stale = sell(nonce);
    await fx.port.waitForReceipt(await fx.walletOf(dave).writeContract({ address: fx.local.addresses.exchange, abi: exchangeAbi, functionName: 'incrementNonce' }), 0);
    expect(await fx.port.makerNonce(dave.address)).toBe(nonce + 1n);
    await expectRevert(fx.match(buy(), [stale], BUY_10, [SELL_10]), 'Exchange: invalid nonce');
    await fx.match(buy(), [sell(nonce + 1n)], BUY_10, [SELL_10]);
    const events = await fx.port.getCancelAndNonceEvents(from, await fx.port.getBlockNumber());
    expect(events).toEqual([expect.objectContaining({ type: 'NonceIncremented', maker: dave.address, newNonce: nonce + 1n })]);
  });

  it('when a trader calls matchOrders or admin functions itself, then "not operator" / "not admin"', async () => {
    const [alice] = fx.traders;
    const { taker, maker } = pair();
    const wallet = fx.walletOf(alice);
    const exchange = fx.local.addresses.exchange;
    await expectRevert(wallet.writeContract({ address: exchange, abi: exchangeAbi, functionName: 'matchOrders', args: [withoutHash(taker), [withoutHash(maker)], BUY_10, [SELL_10]] }).catch(rethrowMapped), 'Exchange: not operator');
    await expectRevert(wallet.writeContract({ address: exchange, abi: exchangeAbi, functionName: 'setPaused', args: [true] }).catch(rethrowMapped), 'Exchange: not admin');
    await expectRevert(wallet.writeContract({ address: exchange, abi: exchangeAbi, functionName: 'setOperator', args: [alice.address, true] }).catch(rethrowMapped), 'Exchange: not admin');
  });

  it('when the exchange is paused, then matches fail until it is unpaused', async () => {
    const { taker, maker } = pair();
    const exchange = fx.local.addresses.exchange;
    const setPaused = async (paused: boolean) => fx.port.waitForReceipt(
      await fx.port.context.walletClient.writeContract({ address: exchange, abi: exchangeAbi, functionName: 'setPaused', args: [paused] }), 0);
    await setPaused(true);
    await expectRevert(fx.match(taker, [maker], BUY_10, [SELL_10]), 'Exchange: paused');
    await setPaused(false);
    await fx.match(taker, [maker], BUY_10, [SELL_10]);
  });

  it('when an order is restricted to another counterparty, then it only matches that one', async () => {
    const [alice, bob, carol] = fx.traders;
    const onlyCarol = pair({ maker: { taker: carol.address } });
    await expectRevert(fx.match(onlyCarol.taker, [onlyCarol.maker], BUY_10, [SELL_10]), 'Exchange: maker restricted to another taker');
    const takerOnlyCarol = pair({ taker: { taker: carol.address } });
    await expectRevert(fx.match(takerOnlyCarol.taker, [takerOnlyCarol.maker], BUY_10, [SELL_10]), 'Exchange: taker restricted to another maker');
    const okTaker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' }, { taker: bob.address });
    const okMaker = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' }, { taker: alice.address });
    await fx.match(okTaker, [okMaker], BUY_10, [SELL_10]);
  });

  it('when an order\'s maker amount does not fit the status\'s 240 bits, then "maker amount too large"', async () => {
    const [alice] = fx.traders;
    const huge = 2n ** 240n;
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' }, { makerAmount: huge, takerAmount: huge });
    const { maker } = pair();
    await expectRevert(fx.match(taker, [maker], BUY_10, [SELL_10]), 'Exchange: maker amount too large');
  });

  it('when orders are on unrelated tokens, the same side of one token, or an unregistered token, then they are refused', async () => {
    const [alice, bob] = fx.traders;
    const buyer = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    const otherBuyer = fx.sign(bob, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(buyer, [otherBuyer], orderFillFor('BUY', TEN, 60), [orderFillFor('BUY', TEN, 60)]), 'Exchange: same side on one token');
    const noSeller = fx.sign(bob, { side: 'SELL', outcome: 0, price: '0.3', size: '10' });
    await expectRevert(fx.match(buyer, [noSeller], BUY_10, [SELL_10]), 'Exchange: complement orders must share a side');
    const stray = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' }, { tokenId: 12345n });
    await expectRevert(fx.match(buyer, [stray], BUY_10, [SELL_10]), 'Exchange: unknown token');
  });

  it('when an EIP-1271 contract wallet signs through its owner, then it trades; a stranger signature is refused', async () => {
    const [alice, , , , eve, mallory] = fx.traders;
    const eveWallet = fx.walletOf(eve);
    const deployHash = await eveWallet.deployContract({ abi: contractWalletAbi, bytecode: contractWalletBytecode, args: [eve.address] });
    const wallet = (await fx.port.context.publicClient.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
    const { collateral, conditionalTokens, exchange } = fx.local.addresses;
    await fx.port.fundWallet(wallet, 100n * E18);
    const calls = [
      [collateral, encodeFunctionData({ abi: collateralAbi, functionName: 'approve', args: [conditionalTokens, 50n * E18] })],
      [conditionalTokens, encodeFunctionData({ abi: conditionalTokensAbi, functionName: 'splitPosition', args: [collateral, fx.condition.conditionId, 50n * E18] })],
      [conditionalTokens, encodeFunctionData({ abi: conditionalTokensAbi, functionName: 'setApprovalForAll', args: [exchange, true] })],
    ] as const;
    for (const [target, data] of calls) {
      await fx.port.waitForReceipt(await eveWallet.writeContract({ address: wallet, abi: contractWalletAbi, functionName: 'execute', args: [target, data] }), 0);
    }
    const domain = { chainId: 56, verifyingContract: exchange };
    const built = fx.sign(eve, { side: 'SELL', outcome: 1, price: '0.55', size: '10', signatureType: 1 }, { maker: wallet, signer: wallet });
    const digest = orderDigest(built, domain);
    const signedByOwner = { ...built, signature: signDigest(digest, eve.privateKey) };
    const signedByStranger = { ...built, signature: signDigest(digest, mallory.privateKey) };
    expect(await fx.port.isValidContractSignature(wallet, built.hash, signedByOwner.signature)).toBe(true);
    expect(await fx.port.isValidContractSignature(wallet, built.hash, signedByStranger.signature)).toBe(false);
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(taker, [signedByStranger], BUY_10, [SELL_10]), 'Exchange: invalid signature');
    const before = await fx.balances(wallet);
    await fx.match(taker, [signedByOwner], BUY_10, [SELL_10]);
    const after = await fx.balances(wallet);
    expect(after.yes - before.yes).toBe(-TEN);
    expect(after.collateral - before.collateral).toBe((55n * E18) / 10n - (100n * 45n * 10n * E18) / 1_000_000n);
  });
});

/** Direct wallet calls fail in viem before our port sees them; map them like the port does. */
async function rethrowMapped(error: unknown): Promise<never> {
  const { toChainError } = await import('../../src/chain');
  throw toChainError(error, 'direct call');
}

/**
 * A fresh 1-share match (BUY YES taker at 0.60, SELL YES maker at 0.55); `shares` 2 asks for more
 * than the orders hold, which the contract refuses at gas estimation.
 */
function oneShareMatch(shares: 1n | 2n = 1n) {
  const [alice, bob] = fx.traders;
  return {
    taker: withoutHash(fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '1' })),
    makers: [withoutHash(fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '1' }))],
    takerFill: orderFillFor('BUY', shares * E18, 55),
    makerFills: [orderFillFor('SELL', shares * E18, 55)],
  };
}

describe('the operator sender', () => {
  it('when twelve matches are sent at once and two of them revert at gas estimation, then the ten others are all mined (no nonce gap, none refused as out of order)', async () => {
    // Matches 2 and 7 ask for 2 of the orders' 1 share: refused at gas estimation, before they are sent.
    const sends = Array.from({ length: 12 }, (_, i) => fx.port.submitMatch(oneShareMatch(i % 5 === 2 ? 2n : 1n)));
    const outcomes = await Promise.allSettled(sends);
    const refused = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [i] : []));
    expect(refused).toEqual([2, 7]);
    for (const i of refused) expect((outcomes[i] as PromiseRejectedResult).reason).toMatchObject({ reason: 'Exchange: fill exceeds remaining' });
    const hashes = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const receipts = await Promise.all(hashes.map((h) => fx.port.waitForReceipt(h, 0)));
    expect(receipts.map((r) => r.status)).toEqual(Array(10).fill('success'));
  });
});

describe('many matches sent at once', () => {
  it('when twelve matches go out as one batch, two of them refused at estimation, and a single send runs beside them, then the ten and the single are all mined', async () => {
    const [outcomes, single] = await Promise.all([
      fx.port.submitMatches(Array.from({ length: 12 }, (_, i) => oneShareMatch(i % 5 === 2 ? 2n : 1n))),
      fx.port.submitMatch(oneShareMatch()),
    ]);
    expect(outcomes.flatMap((o, i) => (o instanceof Error ? [i] : []))).toEqual([2, 7]);
    expect((outcomes[2] as ChainRevertError).reason).toBe('Exchange: fill exceeds remaining');
    const hashes = [single, ...outcomes.filter((o): o is `0x${string}` => typeof o === 'string')];
    const receipts = await Promise.all(hashes.map((h) => fx.port.waitForReceipt(h, 0)));
    expect(receipts.map((r) => r.status)).toEqual(Array(11).fill('success'));
  });

  it('when a match fits the fixed gas cap, then it is sent with exactly that limit and uses less than half of it', async () => {
    const [hash] = await fx.port.submitMatches([oneShareMatch()]);
    expect(typeof hash).toBe('string');
    const receipt = await fx.port.waitForReceipt(hash as `0x${string}`, 0);
    const sent = await fx.port.context.publicClient.getTransaction({ hash: hash as `0x${string}` });
    expect(receipt.status).toBe('success');
    expect(sent.gas).toBe(matchGasLimit(1));
    expect(receipt.gasUsed * 2n).toBeLessThan(matchGasLimit(1));
  });

  it('when another process sent from the operator account since this one last did, then the batch is signed again with fresh nonces and goes through', async () => {
    // This port's sender now caches its next nonce...
    await fx.port.waitForReceipt(await fx.port.submitMatch(oneShareMatch()), 0);
    // ...which another process (its own sender, same key) uses up.
    const other = createChainPort({
      rpcUrl: fx.local.rpcUrl, chainId: fx.local.chainId, operatorKey: fx.local.operatorKey, addresses: fx.local.addresses, confirmations: 0,
    });
    await other.waitForReceipt(await other.submitMatch(oneShareMatch()), 0);
    const outcomes = await fx.port.submitMatches([oneShareMatch(), oneShareMatch(), oneShareMatch()]);
    expect(outcomes.every((o) => typeof o === 'string')).toBe(true);
    const receipts = await Promise.all(outcomes.map((h) => fx.port.waitForReceipt(h as `0x${string}`, 0)));
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success', 'success']);
  });
});
