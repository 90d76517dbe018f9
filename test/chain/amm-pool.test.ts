/** The pool contract: trades move balances exactly as calcBuyAmount/calcSellAmount say, and its guards hold. */
import type { Address } from 'viem';
import { ammPoolAbi, collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { E18, startPoolFixture, type PoolFixture } from '../amm/pool-fixture';

let fx: PoolFixture;
beforeAll(async () => {
  fx = await startPoolFixture({ feeBps: 200 });
});
afterAll(async () => {
  await fx.stop();
});

const read = <T>(functionName: string, args: readonly unknown[] = []): Promise<T> =>
  fx.port.context.publicClient.readContract({ address: fx.pool, abi: ammPoolAbi, functionName, args } as never) as Promise<T>;
const simulate = (account: Address, functionName: string, args: readonly unknown[] = []) =>
  fx.port.context.publicClient.simulateContract({ address: fx.pool, abi: ammPoolAbi, functionName, args, account } as never);
const trade = (index: number, functionName: 'buy' | 'sell', args: readonly bigint[]) =>
  fx.send(fx.traders[index], { address: fx.pool, abi: ammPoolAbi, functionName, args });

describe('AmmPool trades', () => {
  it('when the pool is first funded, then it holds the funding in both outcomes and prices are even', async () => {
    const state = await fx.state();
    expect(state.balances).toEqual([1000n * E18, 1000n * E18]);
    expect(state.totalShares).toBe(1000n * E18);
  });

  it('when a trader buys, then it pays the investment, gets calcBuyAmount tokens, and the fee stays in the pool', async () => {
    const trader = fx.traders[0].address;
    const investment = 37n * E18 + 123n;
    const expected = await read<bigint>('calcBuyAmount', [investment, 1n]);
    const [before, poolBefore] = [await fx.balances(trader), await fx.state()];
    await trade(0, 'buy', [investment, 1n, expected]);
    const [after, poolAfter] = [await fx.balances(trader), await fx.state()];
    const fee = (investment * 200n) / 10_000n;
    expect(after.collateral - before.collateral).toBe(-investment);
    expect(after.yes - before.yes).toBe(expected);
    expect(after.no).toBe(before.no);
    expect(poolAfter.balances).toEqual([poolBefore.balances[0] + investment - fee, poolBefore.balances[1] + investment - fee - expected]);
    expect(poolAfter.collectedFees - poolBefore.collectedFees).toBe(fee);
    expect((await fx.balances(fx.pool)).collateral).toBe(poolAfter.collectedFees);
  });

  it('when a trader sells, then it gets the return and gives exactly calcSellAmount tokens', async () => {
    const trader = fx.traders[0].address;
    const returnAmount = 10n * E18 + 7n;
    const expected = await read<bigint>('calcSellAmount', [returnAmount, 1n]);
    const [before, poolBefore] = [await fx.balances(trader), await fx.state()];
    await trade(0, 'sell', [returnAmount, 1n, expected]);
    const [after, poolAfter] = [await fx.balances(trader), await fx.state()];
    const fee = (returnAmount * 200n) / 9_800n;
    expect(after.collateral - before.collateral).toBe(returnAmount);
    expect(before.yes - after.yes).toBe(expected);
    expect(poolAfter.balances).toEqual([
      poolBefore.balances[0] - returnAmount - fee, poolBefore.balances[1] - returnAmount - fee + expected,
    ]);
    expect(poolAfter.collectedFees - poolBefore.collectedFees).toBe(fee);
    expect((await fx.balances(fx.pool)).collateral).toBe(poolAfter.collectedFees);
  });

  it('when the minimum tokens out or the maximum tokens in would be missed, then the trade reverts', async () => {
    const trader = fx.traders[1].address;
    const bought = await read<bigint>('calcBuyAmount', [5n * E18, 0n]);
    await expect(simulate(trader, 'buy', [5n * E18, 0n, bought + 1n])).rejects.toThrow(/minimum buy amount not reached/);
    await trade(1, 'buy', [5n * E18, 0n, bought]);
    const sold = await read<bigint>('calcSellAmount', [E18, 0n]);
    await expect(simulate(trader, 'sell', [E18, 0n, sold - 1n])).rejects.toThrow(/maximum sell amount exceeded/);
  });

  it('when a sell asks for more collateral than the pool holds of the other outcome, then calcSellAmount refuses', async () => {
    const { balances } = await fx.state();
    await expect(read('calcSellAmount', [balances[1], 0n])).rejects.toThrow(/return exceeds liquidity/);
  });

  it('when someone other than the operator funds, pauses or closes, then the pool refuses', async () => {
    const trader = fx.traders[1].address;
    await expect(simulate(trader, 'addFunding', [E18])).rejects.toThrow(/operator only/);
    await expect(simulate(trader, 'removeFunding', [1n])).rejects.toThrow(/operator only/);
    await expect(simulate(trader, 'setPaused', [true])).rejects.toThrow(/operator only/);
    await expect(simulate(trader, 'close')).rejects.toThrow(/operator only/);
  });

  it('when the operator adds funding later, then prices stay and the unbalanced tokens go back to it', async () => {
    const operator = fx.port.operatorAddress;
    const { balances, totalShares } = await fx.state();
    await fx.port.fundWallet(operator, 100n * E18);
    const ctx = fx.port.context;
    await fx.port.waitForReceipt(await ctx.walletClient.writeContract({
      address: fx.local.addresses.collateral, abi: collateralAbi, functionName: 'approve', args: [fx.pool, 100n * E18],
    }), 0);
    const before = await fx.balances(operator);
    await fx.port.waitForReceipt(await ctx.walletClient.writeContract({ address: fx.pool, abi: ammPoolAbi, functionName: 'addFunding', args: [100n * E18] }), 0);
    const after = await fx.state();
    const weight = balances[0] > balances[1] ? balances[0] : balances[1];
    const added = [(100n * E18 * balances[0]) / weight, (100n * E18 * balances[1]) / weight];
    expect(after.balances).toEqual([balances[0] + added[0], balances[1] + added[1]]);
    expect(after.totalShares).toBe(totalShares + (100n * E18 * totalShares) / weight);
    const operatorAfter = await fx.balances(operator);
    expect(operatorAfter.no - before.no).toBe(100n * E18 - added[0]);
    expect(operatorAfter.yes - before.yes).toBe(100n * E18 - added[1]);
  });
});

describe('AmmPool pause, close and resolution', () => {
  const ctx = () => fx.port.context;
  const operatorWrite = async (functionName: string, args: readonly unknown[] = []) =>
    fx.port.waitForReceipt(await ctx().walletClient.writeContract({ address: fx.pool, abi: ammPoolAbi, functionName, args } as never), 0);

  it('when the pool is paused, then trades revert until it is unpaused', async () => {
    const trader = fx.traders[2].address;
    await operatorWrite('setPaused', [true]);
    await expect(simulate(trader, 'buy', [E18, 1n, 0n])).rejects.toThrow(/Pool: paused/);
    await expect(simulate(trader, 'sell', [1n, 1n, E18])).rejects.toThrow(/Pool: paused/);
    await operatorWrite('setPaused', [false]);
    await trade(2, 'buy', [E18, 1n, 0n]);
  });

  it('when the condition resolves, then the pool refuses trades and bought tokens redeem through the conditional tokens', async () => {
    const trader = fx.traders[2];
    const { yes } = await fx.balances(trader.address);
    expect(yes).toBeGreaterThan(0n);
    await fx.port.reportPayouts(fx.condition.questionId, 1);
    await expect(simulate(trader.address, 'buy', [E18, 1n, 0n])).rejects.toThrow(/condition resolved/);
    const before = await fx.balances(trader.address);
    await fx.send(trader, {
      address: fx.local.addresses.conditionalTokens, abi: conditionalTokensAbi, functionName: 'redeemPositions',
      args: [fx.local.addresses.collateral, fx.condition.conditionId],
    });
    const after = await fx.balances(trader.address);
    expect(after.collateral - before.collateral).toBe(yes);
    expect(after.yes).toBe(0n);
  });

  it('when the operator removes all funding after close, then it gets every pool token and every fee', async () => {
    await operatorWrite('close');
    await expect(simulate(fx.traders[3].address, 'buy', [E18, 1n, 0n])).rejects.toThrow(/Pool: closed/);
    const operator = fx.port.operatorAddress;
    const pool = await fx.state();
    const before = await fx.balances(operator);
    await operatorWrite('removeFunding', [pool.totalShares]);
    const after = await fx.balances(operator);
    expect(after.no - before.no).toBe(pool.balances[0]);
    expect(after.yes - before.yes).toBe(pool.balances[1]);
    expect(after.collateral - before.collateral).toBe(pool.collectedFees);
    expect(await fx.balances(fx.pool)).toEqual({ collateral: 0n, no: 0n, yes: 0n });
  });
});
