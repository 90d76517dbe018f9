/** The TypeScript pool math equals the contract's calcBuyAmount/calcSellAmount to the wei. */
import { ammPoolAbi } from '../../src/chain/generated';
import { calcBuyAmount, calcSellAmount, maxSellReturn, sellReturnFor, type PoolBalances } from '../../src/amm/pool-math';
import { createPoolStateReader, readPoolState } from '../../src/amm/pool-state';
import { E18, startPoolFixture, type PoolFixture } from './pool-fixture';

let fx: PoolFixture;
let balances: PoolBalances;
beforeAll(async () => {
  fx = await startPoolFixture({ feeBps: 175, liquidity: 777n * E18 + 12345n });
  // Uneven balances, so the two outcomes and the rounding paths differ.
  await fx.send(fx.traders[0], { address: fx.pool, abi: ammPoolAbi, functionName: 'buy', args: [123n * E18 + 456789n, 1n, 0n] });
  balances = (await fx.state()).balances;
});
afterAll(async () => {
  await fx.stop();
});

const onChain = (functionName: 'calcBuyAmount' | 'calcSellAmount', amount: bigint, outcome: 0 | 1) =>
  fx.port.context.publicClient.readContract({ address: fx.pool, abi: ammPoolAbi, functionName, args: [amount, BigInt(outcome)] });

/** 1 wei up to most of the pool: powers of ten, their neighbours and odd multiples. */
function sizes(limit: bigint): bigint[] {
  const out = new Set<bigint>([1n, 2n, 3n, 99n]);
  for (let p = 1n; p < limit; p *= 10n) for (const s of [p - 1n, p, p + 1n, (p * 37n) / 10n, (p * 71n) / 10n + 3n]) if (s > 0n && s < limit) out.add(s);
  out.add(limit - 1n);
  return [...out];
}

describe('pool math port', () => {
  it.each([0, 1] as const)('when buying outcome %i at any size, then the port equals calcBuyAmount', async (outcome) => {
    const amounts = sizes(5000n * E18);
    const chain = await Promise.all(amounts.map((a) => onChain('calcBuyAmount', a, outcome)));
    expect(amounts.map((a) => calcBuyAmount(balances, 175n, a, outcome))).toEqual(chain);
  });

  it.each([0, 1] as const)('when selling outcome %i for any return, then the port equals calcSellAmount', async (outcome) => {
    const max = maxSellReturn(balances, 175n, outcome);
    const amounts = sizes(max + 1n);
    const chain = await Promise.all(amounts.map((a) => onChain('calcSellAmount', a, outcome)));
    expect(amounts.map((a) => calcSellAmount(balances, 175n, a, outcome))).toEqual(chain);
    await expect(onChain('calcSellAmount', max + 1n, outcome)).rejects.toThrow(/return exceeds liquidity/);
  });

  it.each([0, 1] as const)('when selling shares of outcome %i, then the return found is the largest the shares cover on chain', async (outcome) => {
    for (const shares of [1n, 10n ** 9n, E18, 3n * E18 + 17n, 250n * E18, 10_000n * E18]) {
      const best = sellReturnFor(balances, 175n, shares, outcome);
      if (best > 0n) expect(await onChain('calcSellAmount', best, outcome)).toBeLessThanOrEqual(shares);
      if (best < maxSellReturn(balances, 175n, outcome)) expect(await onChain('calcSellAmount', best + 1n, outcome)).toBeGreaterThan(shares);
    }
  });
});

describe('pool state reader', () => {
  it('when many quotes read one block, then the pool is read once, and a new block after a trade is read again', async () => {
    const client = fx.port.context.publicClient;
    const spy = jest.spyOn(client, 'readContract');
    const reader = createPoolStateReader(client, { headTtlMs: 60_000 });
    const states = await Promise.all(Array.from({ length: 50 }, () => reader.read(fx.pool)));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(new Set(states.map((s) => s.blockNumber)).size).toBe(1);
    expect(states[0]).toEqual(await readPoolState(client, fx.pool, states[0].blockNumber));

    await fx.send(fx.traders[1], { address: fx.pool, abi: ammPoolAbi, functionName: 'buy', args: [E18, 0n, 0n] });
    expect((await reader.read(fx.pool)).blockNumber).toBe(states[0].blockNumber);
    reader.invalidate(fx.pool);
    const after = await reader.read(fx.pool);
    expect(after.blockNumber).toBeGreaterThan(states[0].blockNumber);
    expect(after.balances).toEqual((await fx.state()).balances);
    spy.mockRestore();
  });
});
