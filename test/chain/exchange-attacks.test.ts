/** What a hostile trader (or a buggy operator) would try; every one must revert with its reason. */
import { encodeFunctionData } from 'viem';
import { ChainRevertError, fillAmountFor } from '../../src/chain';
import { collateralAbi, conditionalTokensAbi, contractWalletAbi, contractWalletBytecode, exchangeAbi } from '../../src/chain/generated';
import { orderDigest, signDigest } from '../../src/signing';
import { E18, startFixture, type Fixture } from './chain-fixture';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.stop();
});

const TEN = 10n * E18;

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
    await fx.match(taker, [maker], 6n * E18, [TEN]);
    const again = fx.sign(fx.traders[0], { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(again, [maker], 6n * E18, [TEN]), 'Exchange: order filled or cancelled');
  });

  it('when a maker is filled beyond its size, at once or over two matches, then "fill exceeds remaining"', async () => {
    const { taker, maker } = pair();
    await expectRevert(fx.match(taker, [maker], 7n * E18, [11n * E18]), 'Exchange: fill exceeds remaining');
    await fx.match(taker, [maker], 6n * E18, [4n * E18]);
    const taker2 = fx.sign(fx.traders[0], { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(taker2, [maker], 6n * E18, [7n * E18]), 'Exchange: fill exceeds remaining');
    await fx.match(taker2, [maker], 6n * E18, [6n * E18]);
    expect(await fx.port.orderStatus(maker.hash)).toEqual({ filledOrCancelled: true, cancelled: false, remaining: 0n });
  });

  it('when the taker gives more than its fill amount allows, then "taker fill exceeded"', async () => {
    const { taker, maker } = pair();
    await expectRevert(fx.match(taker, [maker], 5n * E18, [TEN]), 'Exchange: taker fill exceeded');
  });

  it('when an order is signed by someone other than its maker, or altered after signing, then "invalid signature"', async () => {
    const [alice, bob, carol] = fx.traders;
    const forged = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' });
    const carolSig = signDigest(orderDigest(forged, { chainId: 56, verifyingContract: fx.local.addresses.exchange }), carol.privateKey);
    const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(taker, [{ ...forged, signature: carolSig }], 6n * E18, [TEN]), 'Exchange: invalid signature');
    await expectRevert(fx.match(taker, [{ ...forged, takerAmount: forged.takerAmount / 2n }], 6n * E18, [TEN]), 'Exchange: invalid signature');
    const otherSigner = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' }, { signer: carol.address });
    await expectRevert(fx.match(taker, [otherSigner], 6n * E18, [TEN]), 'Exchange: signer must be maker');
  });

  it('when the fill price is worse than the taker signed, for a transfer, a mint or a merge, then "taker price worse than signed"', async () => {
    const [alice, bob, carol, dave] = fx.traders;
    const lowBuyer = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.5', size: '10' });
    const seller = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' });
    // Fills inside every cap, so only the price can be wrong: 5 YES for 2.75 is 0.55 > 0.50.
    await expectRevert(fx.match(lowBuyer, [seller], 5n * E18, [5n * E18]), 'Exchange: taker price worse than signed');
    const noBuyer = fx.sign(carol, { side: 'BUY', outcome: 0, price: '0.45', size: '10' }); // YES at 0.55
    await expectRevert(fx.match(lowBuyer, [noBuyer], 5n * E18, [fillAmountFor('BUY', 5n * E18, 45)]), 'Exchange: taker price worse than signed');
    const highSeller = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.6', size: '10' });
    const noSeller = fx.sign(dave, { side: 'SELL', outcome: 0, price: '0.45', size: '10' }); // YES at 0.55
    await expectRevert(fx.match(highSeller, [noSeller], TEN, [TEN]), 'Exchange: taker price worse than signed');
    const yesBuyer = fx.sign(carol, { side: 'BUY', outcome: 1, price: '0.55', size: '10' });
    await expectRevert(fx.match(highSeller, [yesBuyer], TEN, [fillAmountFor('BUY', TEN, 55)]), 'Exchange: taker price worse than signed');
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
    await expectRevert(fx.match(taker, [maker], 6n * E18, [TEN]), 'Exchange: order filled or cancelled');
    expect(await fx.port.orderStatus(maker.hash)).toEqual({ filledOrCancelled: true, cancelled: true, remaining: 0n });
    const events = await fx.port.getCancelAndNonceEvents(from, await fx.port.getBlockNumber());
    expect(events).toEqual([expect.objectContaining({ type: 'OrderCancelled', orderHash: maker.hash, maker: bob.address })]);
  });

  it('when an order has expired, then "order expired"', async () => {
    const now = (await fx.port.context.publicClient.getBlock()).timestamp;
    const { taker, maker } = pair({ maker: { expiration: now + 60n } });
    await fx.rpc('evm_increaseTime', [120]);
    await fx.rpc('evm_mine');
    await expectRevert(fx.match(taker, [maker], 6n * E18, [TEN]), 'Exchange: order expired');
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
    await expectRevert(fx.match(buy(), [stale], 6n * E18, [TEN]), 'Exchange: invalid nonce');
    await fx.match(buy(), [sell(nonce + 1n)], 6n * E18, [TEN]);
    const events = await fx.port.getCancelAndNonceEvents(from, await fx.port.getBlockNumber());
    expect(events).toEqual([expect.objectContaining({ type: 'NonceIncremented', maker: dave.address, newNonce: nonce + 1n })]);
  });

  it('when a trader calls matchOrders or admin functions itself, then "not operator" / "not admin"', async () => {
    const [alice] = fx.traders;
    const { taker, maker } = pair();
    const strip = ({ hash: _h, ...o }: typeof taker) => o;
    const wallet = fx.walletOf(alice);
    const exchange = fx.local.addresses.exchange;
    await expectRevert(wallet.writeContract({ address: exchange, abi: exchangeAbi, functionName: 'matchOrders', args: [strip(taker), [strip(maker)], 6n * E18, [TEN]] }).catch(rethrowMapped), 'Exchange: not operator');
    await expectRevert(wallet.writeContract({ address: exchange, abi: exchangeAbi, functionName: 'setPaused', args: [true] }).catch(rethrowMapped), 'Exchange: not admin');
    await expectRevert(wallet.writeContract({ address: exchange, abi: exchangeAbi, functionName: 'setOperator', args: [alice.address, true] }).catch(rethrowMapped), 'Exchange: not admin');
  });

  it('when the exchange is paused, then matches fail until it is unpaused', async () => {
    const { taker, maker } = pair();
    const exchange = fx.local.addresses.exchange;
    const setPaused = async (paused: boolean) => fx.port.waitForReceipt(
      await fx.port.context.walletClient.writeContract({ address: exchange, abi: exchangeAbi, functionName: 'setPaused', args: [paused] }), 0);
    await setPaused(true);
    await expectRevert(fx.match(taker, [maker], 6n * E18, [TEN]), 'Exchange: paused');
    await setPaused(false);
    await fx.match(taker, [maker], 6n * E18, [TEN]);
  });

  it('when an order is restricted to another counterparty, then it only matches that one', async () => {
    const [alice, bob, carol] = fx.traders;
    const onlyCarol = pair({ maker: { taker: carol.address } });
    await expectRevert(fx.match(onlyCarol.taker, [onlyCarol.maker], 6n * E18, [TEN]), 'Exchange: maker restricted to another taker');
    const takerOnlyCarol = pair({ taker: { taker: carol.address } });
    await expectRevert(fx.match(takerOnlyCarol.taker, [takerOnlyCarol.maker], 6n * E18, [TEN]), 'Exchange: taker restricted to another maker');
    const okTaker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' }, { taker: bob.address });
    const okMaker = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' }, { taker: alice.address });
    await fx.match(okTaker, [okMaker], 6n * E18, [TEN]);
  });

  it('when orders are on unrelated tokens, the same side of one token, or an unregistered token, then they are refused', async () => {
    const [alice, bob] = fx.traders;
    const buyer = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    const otherBuyer = fx.sign(bob, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await expectRevert(fx.match(buyer, [otherBuyer], 6n * E18, [6n * E18]), 'Exchange: same side on one token');
    const noSeller = fx.sign(bob, { side: 'SELL', outcome: 0, price: '0.3', size: '10' });
    await expectRevert(fx.match(buyer, [noSeller], 6n * E18, [TEN]), 'Exchange: complement orders must share a side');
    const stray = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '10' }, { tokenId: 12345n });
    await expectRevert(fx.match(buyer, [stray], 6n * E18, [TEN]), 'Exchange: unknown token');
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
    await expectRevert(fx.match(taker, [signedByStranger], 6n * E18, [TEN]), 'Exchange: invalid signature');
    const before = await fx.balances(wallet);
    await fx.match(taker, [signedByOwner], 6n * E18, [TEN]);
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
