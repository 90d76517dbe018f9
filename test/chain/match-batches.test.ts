/**
 * `matchOrdersBatch` and the port's `submitMatchBatches`: many matches per transaction, each
 * settled or refused on its own.
 */
import { decodeEventLog, type Hex } from 'viem';
import { orderFillFor } from '../../src/chain';
import { revertReasonOf } from '../../src/chain/chain-errors';
import { BATCH_GAS_OVERHEAD, batchItemGas, MAX_BATCH_GAS } from '../../src/chain/submit-match-batches';
import { matchGasLimit } from '../../src/chain/submit-matches';
import { exchangeAbi } from '../../src/chain/generated';
import { MAX_MAKERS_PER_TAKER } from '../../src/engine';
import { E18, startFixture, type Fixture } from './chain-fixture';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.stop();
});

/**
 * A fresh 1-share match (BUY YES taker at 0.60, SELL YES maker at 0.55) and its taker's hash;
 * `shares` 2 asks for more than the orders hold, which the contract refuses.
 */
function oneShareMatch(shares: 1n | 2n = 1n) {
  const [alice, bob] = fx.traders;
  const { hash, ...taker } = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '1' });
  const { hash: makerHash, ...maker } = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '1' });
  return {
    takerHash: hash.toLowerCase() as Hex,
    makerHash,
    match: { taker, makers: [maker], takerFill: orderFillFor('BUY', shares * E18, 55), makerFills: [orderFillFor('SELL', shares * E18, 55)] },
  };
}

/** The exchange's events in a receipt, decoded. */
async function eventsOf(hash: Hex) {
  const receipt = await fx.port.waitForReceipt(hash, 0);
  const full = await fx.port.context.publicClient.getTransactionReceipt({ hash });
  return { receipt, events: full.logs.flatMap((log) => {
    try {
      return [decodeEventLog({ abi: exchangeAbi, data: log.data, topics: log.topics })];
    } catch {
      return [];
    }
  }) };
}

describe('matchOrdersBatch', () => {
  it('when one match of a batch is refused inside the transaction, then it alone is rolled back and announced in MatchFailed with its reason, and the others settle', async () => {
    const good = [oneShareMatch(), oneShareMatch()];
    const bad = oneShareMatch(2n);
    const list = [good[0], bad, good[1]];
    const aliceBefore = await fx.balances(fx.traders[0].address);
    // Sent without the port's pre-run, as if the state had moved between the run and the mining.
    const hash = await fx.port.context.walletClient.writeContract({
      address: fx.local.addresses.exchange, abi: exchangeAbi, functionName: 'matchOrdersBatch', gas: 3_000_000n,
      args: [list.map(({ match: m }) => ({ takerOrder: m.taker, makerOrders: m.makers, takerFill: m.takerFill, makerFills: m.makerFills }))],
    });
    const { receipt, events } = await eventsOf(hash);
    expect(receipt.status).toBe('success');
    const matched = events.filter((e) => e.eventName === 'OrdersMatched').map((e) => (e.args as { takerOrderHash: Hex }).takerOrderHash.toLowerCase());
    expect(matched).toEqual([good[0].takerHash, good[1].takerHash]);
    const failed = events.filter((e) => e.eventName === 'MatchFailed').map((e) => e.args as { takerOrderHash: Hex; reason: Hex });
    expect(failed.map((f) => f.takerOrderHash.toLowerCase())).toEqual([bad.takerHash]);
    expect(revertReasonOf(failed[0].reason)).toBe('Exchange: fill exceeds remaining');
    // The refused match moved nothing: its orders were never filled, and the taker got two shares only.
    expect(await fx.port.orderStatus(bad.makerHash)).toMatchObject({ filledOrCancelled: false, remaining: null });
    expect(await fx.port.orderStatus(bad.takerHash)).toMatchObject({ filledOrCancelled: false, remaining: null });
    const aliceAfter = await fx.balances(fx.traders[0].address);
    expect(aliceAfter.yes - aliceBefore.yes).toBe(2n * E18);
    expect(await fx.port.getReceiptState(hash)).toMatchObject({
      status: 'success', matchedTakers: [good[0].takerHash, good[1].takerHash], refusedTakers: [{ taker: bad.takerHash, reason: 'Exchange: fill exceeds remaining' }],
    });
  });

  it('when anyone but the exchange itself calls matchOrdersOfBatch, even the operator, then it reverts "batch only"', async () => {
    const { match: m } = oneShareMatch();
    const call = fx.port.context.publicClient.simulateContract({
      account: fx.port.context.walletClient.account!, address: fx.local.addresses.exchange, abi: exchangeAbi, functionName: 'matchOrdersOfBatch',
      args: [{ takerOrder: m.taker, makerOrders: m.makers, takerFill: m.takerFill, makerFills: m.makerFills }],
    });
    await expect(call).rejects.toThrow(/Exchange: batch only/);
  });
});

describe('submitMatchBatches', () => {
  it('when thirty matches go out together and two of them would be refused, then they share transactions within the gas bound, and each receipt names its settled takers and the refused ones with their reason', async () => {
    const list = Array.from({ length: 30 }, (_, i) => oneShareMatch(i === 3 || i === 17 ? 2n : 1n));
    const outcomes = await fx.port.submitMatchBatches(list.map((l) => l.match));
    expect(outcomes.every((o) => typeof o === 'string')).toBe(true);
    const perChunk = Number((MAX_BATCH_GAS - BATCH_GAS_OVERHEAD) / batchItemGas(1));
    const hashes = [...new Set(outcomes as Hex[])];
    expect(hashes).toHaveLength(Math.ceil(30 / perChunk));
    const refused: string[] = [];
    for (const hash of hashes) {
      const state = await fx.port.getReceiptState(hash);
      const carried = list.filter((_, i) => outcomes[i] === hash);
      expect(state).toMatchObject({
        status: 'success',
        matchedTakers: carried.filter((l) => l.match.takerFill.making === list[0].match.takerFill.making).map((l) => l.takerHash),
      });
      if (state.status === 'pending') continue;
      for (const r of state.refusedTakers) {
        expect(r.reason).toBe('Exchange: fill exceeds remaining');
        refused.push(r.taker);
      }
      const sent = await fx.port.context.publicClient.getTransaction({ hash });
      expect(sent.gas).toBeLessThanOrEqual(MAX_BATCH_GAS);
    }
    expect(refused).toEqual([list[3].takerHash, list[17].takerHash]);
    for (const [i, l] of list.entries()) {
      expect(await fx.port.orderStatus(l.makerHash)).toMatchObject(i === 3 || i === 17 ? { filledOrCancelled: false, remaining: null } : { filledOrCancelled: true, remaining: 0n });
    }
  });

  it('when one taker takes as many makers as the engine lets it (MAX_MAKERS_PER_TAKER), then its match fits one batch transaction under the 2^24 gas cap and settles on chain within its gas budget', async () => {
    const [alice, bob] = fx.traders;
    const n = MAX_MAKERS_PER_TAKER;
    const { hash: takerHash, ...taker } = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: String(n) });
    const makers = Array.from({ length: n }, () => {
      const { hash: _hash, ...maker } = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '1' });
      return maker;
    });
    const before = await fx.balances(alice.address);
    const [outcome] = await fx.port.submitMatchBatches([{
      taker, makers, takerFill: orderFillFor('BUY', BigInt(n) * E18, 55), makerFills: makers.map(() => orderFillFor('SELL', E18, 55)),
    }]);
    expect(typeof outcome).toBe('string');
    const hash = outcome as Hex;
    expect(await fx.port.getReceiptState(hash)).toMatchObject({ status: 'success', matchedTakers: [takerHash.toLowerCase()] });
    const sent = await fx.port.context.publicClient.getTransaction({ hash });
    const receipt = await fx.port.context.publicClient.getTransactionReceipt({ hash });
    expect(sent.gas).toBeLessThanOrEqual(MAX_BATCH_GAS);
    expect(MAX_BATCH_GAS).toBeLessThanOrEqual(2n ** 24n);
    expect(receipt.gasUsed).toBeLessThan(matchGasLimit(n));
    expect((await fx.balances(alice.address)).yes - before.yes).toBe(BigInt(n) * E18);
  });
});
