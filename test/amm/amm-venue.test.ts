/** The AMM venue: quotes exact at their block, and trade() transactions that trade as quoted. */
import { decodeEventLog, formatUnits, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createAmmVenue, type AmmVenue, type MarketLike } from '../../src/amm/amm-venue';
import { decodePoolTrades } from '../../src/amm/pool-events';
import { ammPoolAbi } from '../../src/chain/generated';
import type { DevAccount } from '../../src/chain';
import { AppError } from '../../src/errors';
import { E18, startPoolFixture, type PoolFixture } from './pool-fixture';

let fx: PoolFixture;
let venue: AmmVenue;
let market: MarketLike;
let fresh: DevAccount;
beforeAll(async () => {
  fx = await startPoolFixture({ feeBps: 100 });
  venue = createAmmVenue({ clientFor: (id) => (id === fx.local.chainId ? fx.port.context.publicClient : undefined) });
  const at = new Date();
  market = {
    chain_id: fx.local.chainId, condition_id: fx.condition.conditionId.toLowerCase(), question_id: fx.condition.questionId,
    question: 'Pool?', kind: 'AMM', status: 'OPEN', resolution_outcome: null, status_version: 0, fee_rate_bps: 100,
    summary: { en: 'Pool?' }, rules: { en: '' },
    tokens: [
      { outcome: 0, token_id: fx.condition.noTokenId.toString(), decimals: 18 },
      { outcome: 1, token_id: fx.condition.yesTokenId.toString(), decimals: 18 },
    ],
    collateral_token: fx.local.addresses.collateral, ctf_exchange_address: fx.local.addresses.exchange,
    conditional_tokens_address: fx.local.addresses.conditionalTokens, end_date: at, created_at: at, updated_at: at,
    amm: { pool_address: fx.pool, liquidity: '1000' },
  };
  fresh = fx.local.accounts[7];
  await fx.port.fundWallet(fresh.address, 500n * E18);
});
afterAll(async () => {
  await fx.stop();
});

const calc = (fn: 'calcBuyAmount' | 'calcSellAmount', amount: bigint, outcome: 0 | 1, blockNumber: bigint) =>
  fx.port.context.publicClient.readContract({ address: fx.pool, abi: ammPoolAbi, functionName: fn, args: [amount, BigInt(outcome)], blockNumber });

async function sendAll(trader: DevAccount, txs: { to: Address; data: Hex }[]): Promise<Hex[]> {
  const wallet = fx.wallet(trader);
  const hashes: Hex[] = [];
  for (const tx of txs) {
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, account: privateKeyToAccount(trader.privateKey), chain: wallet.chain });
    const receipt = await fx.port.waitForReceipt(hash, 0);
    if (receipt.status !== 'success') throw new Error(`tx ${hash} reverted`);
    hashes.push(hash);
  }
  return hashes;
}

async function codeOf(run: () => Promise<unknown>): Promise<[string, string]> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return [error.code, error.message];
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('AMM quotes', () => {
  it('when quoting a BUY, then shares, fee and prices are the pool contract at the quoted block', async () => {
    const quote = await venue.quote(market, { outcome: 1, side: 'BUY', amount: '25.5' });
    const shares = await calc('calcBuyAmount', parseUnits('25.5', 18), 1, BigInt(quote.block_number as number));
    expect(quote).toMatchObject({
      kind: 'AMM', chain_id: fx.local.chainId, condition_id: market.condition_id, outcome: 1, side: 'BUY', amount: '25.5',
      fee: '0.255', price_before: '0.5',
    });
    expect(parseUnits(quote.expected_shares as string, 18)).toBe(shares);
    expect(Number(quote.price_after)).toBeGreaterThan(0.5);
    expect(quote.price_impact_bps).toBeGreaterThan(0);
  });

  it('when quoting a SELL, then the collateral is the largest return calcSellAmount covers with the shares', async () => {
    const quote = await venue.quote(market, { outcome: 0, side: 'SELL', amount: '3' });
    const block = BigInt(quote.block_number as number);
    const collateral = parseUnits(quote.expected_collateral as string, 18);
    expect(await calc('calcSellAmount', collateral, 0, block)).toBeLessThanOrEqual(3n * E18);
    expect(await calc('calcSellAmount', collateral + 1n, 0, block)).toBeGreaterThan(3n * E18);
  });

  it.each([
    ['0', /greater than zero/], ['-1', /digits/], ['0.0000000000000000001', /fractional digits/], ['1e5', /digits/],
    ['10000000000000', /at most/],
  ])('when the amount is %s, then VALIDATION_ERROR', async (amount, message) => {
    const [code, text] = await codeOf(() => venue.quote(market, { outcome: 1, side: 'BUY', amount }));
    expect(code).toBe('VALIDATION_ERROR');
    expect(text).toMatch(message);
  });

  it.each([['SELL', '900000000'], ['BUY', '50000']] as const)('when a %s of %s is beyond the pool depth, then VALIDATION_ERROR says so', async (side, amount) => {
    let error: AppError | undefined;
    await venue.quote(market, { outcome: 1, side, amount }).catch((e: AppError) => { error = e; });
    expect(error?.code).toBe('VALIDATION_ERROR');
    expect(error?.message).toMatch(/larger than the pool can pay/);
    // The largest amount within the depth is quoted, one wei more is not.
    const max = error?.details?.max_amount as string;
    const quote = await venue.quote(market, { outcome: 1, side, amount: max });
    expect(Number(quote.price_after)).toBeGreaterThanOrEqual(side === 'BUY' ? 0.9 : 0.01);
    await expect(venue.quote(market, { outcome: 1, side, amount: formatUnits(parseUnits(max, 18) + 1n, 18) })).rejects.toThrow(/larger than the pool/);
  });

  it('when the market is not an open AMM market, then MARKET_NOT_ACTIVE', async () => {
    expect((await codeOf(() => venue.quote({ ...market, kind: 'CLOB', amm: null }, { outcome: 1, side: 'BUY', amount: '1' })))[0]).toBe('MARKET_NOT_ACTIVE');
    expect((await codeOf(() => venue.quote({ ...market, status: 'PAUSED' }, { outcome: 1, side: 'BUY', amount: '1' })))[0]).toBe('MARKET_NOT_ACTIVE');
  });
});

describe('AMM trade transactions', () => {
  it('when a fresh wallet buys, then it first needs the collateral approval, and the pool call buys the quoted shares', async () => {
    const built = await venue.trade(market, { outcome: 1, side: 'BUY', amount: '40', wallet: fresh.address, slippage_bps: 100 });
    const approvals = built.approvals as { to: Address; data: Hex }[];
    expect(approvals).toHaveLength(1);
    expect(approvals[0].to).toBe(fx.local.addresses.collateral);
    const tx = built.tx as { chain_id: number; to: Address; data: Hex; value: string };
    expect(tx).toMatchObject({ chain_id: fx.local.chainId, to: fx.pool, value: '0' });
    const quote = built.quote as Record<string, string>;
    const before = await fx.balances(fresh.address);
    const [, hash] = await sendAll(fresh, [...approvals, tx]);
    const after = await fx.balances(fresh.address);
    expect(after.yes - before.yes).toBe(parseUnits(quote.expected_shares, 18));
    expect(before.collateral - after.collateral).toBe(40n * E18);

    const receipt = await fx.port.context.publicClient.getTransactionReceipt({ hash });
    expect(decodePoolTrades(receipt.logs)).toEqual([expect.objectContaining({
      wallet: fresh.address, outcome: 1, side: 'BUY', collateral: (40n * E18).toString(),
      shares: parseUnits(quote.expected_shares, 18).toString(), fee: (4n * E18 / 10n).toString(), tx_hash: hash,
    })]);
  });

  it('when the pool trades right after a quote, then a trade built at once starts from the new block, not the cached quote', async () => {
    await venue.quote(market, { outcome: 1, side: 'BUY', amount: '1' });
    await fx.send(fx.traders[0], { address: fx.pool, abi: ammPoolAbi, functionName: 'buy', args: [E18, 1n, 0n] });
    const head = await fx.port.context.publicClient.getBlockNumber({ cacheTime: 0 });
    const built = await venue.trade(market, { outcome: 1, side: 'BUY', amount: '1', wallet: fresh.address, slippage_bps: 0 });
    expect(BigInt((built.quote as Record<string, string | number>).block_number)).toBe(head);
  });

  it('when the price moves within the slippage before the buy lands, then it still buys at least the minimum', async () => {
    const built = await venue.trade(market, { outcome: 1, side: 'BUY', amount: '10', wallet: fresh.address, slippage_bps: 300 });
    const expected = parseUnits((built.quote as Record<string, string>).expected_shares, 18);
    await fx.send(fx.traders[0], { address: fx.pool, abi: ammPoolAbi, functionName: 'buy', args: [5n * E18, 1n, 0n] });
    const before = await fx.balances(fresh.address);
    await sendAll(fresh, [...(built.approvals as { to: Address; data: Hex }[]), built.tx as { to: Address; data: Hex }]);
    const got = (await fx.balances(fresh.address)).yes - before.yes;
    expect(got).toBeLessThan(expected);
    expect(got).toBeGreaterThanOrEqual((expected * 9700n) / 10_000n);
  });

  it('when the price moves past the slippage, then the pool call reverts and nothing moves', async () => {
    const built = await venue.trade(market, { outcome: 1, side: 'BUY', amount: '10', wallet: fresh.address, slippage_bps: 10 });
    await sendAll(fresh, built.approvals as { to: Address; data: Hex }[]);
    await fx.send(fx.traders[0], { address: fx.pool, abi: ammPoolAbi, functionName: 'buy', args: [50n * E18, 1n, 0n] });
    const before = await fx.balances(fresh.address);
    await expect(sendAll(fresh, [built.tx as { to: Address; data: Hex }])).rejects.toThrow(/reverted/);
    expect(await fx.balances(fresh.address)).toEqual(before);
  });

  it('when the wallet sells, then it first approves the pool for its tokens, and receives the quoted collateral', async () => {
    const built = await venue.trade(market, { outcome: 1, side: 'SELL', amount: '20', wallet: fresh.address, slippage_bps: 50 });
    const approvals = built.approvals as { to: Address; data: Hex }[];
    expect(approvals.map((a) => a.to)).toEqual([fx.local.addresses.conditionalTokens]);
    const quote = built.quote as Record<string, string>;
    const before = await fx.balances(fresh.address);
    const [, hash] = await sendAll(fresh, [...approvals, built.tx as { to: Address; data: Hex }]);
    const after = await fx.balances(fresh.address);
    expect(after.collateral - before.collateral).toBe(parseUnits(quote.expected_collateral, 18));
    expect(before.yes - after.yes).toBeLessThanOrEqual(20n * E18);
    const logs = (await fx.port.context.publicClient.getTransactionReceipt({ hash })).logs;
    const sell = logs.map((l) => { try { return decodeEventLog({ abi: ammPoolAbi, ...l }); } catch { return null; } }).find((e) => e?.eventName === 'Sell');
    expect(sell).toBeDefined();
  });

  it('when the wallet or the slippage is malformed, then VALIDATION_ERROR', async () => {
    const base = { outcome: 1 as const, side: 'BUY' as const, amount: '1', wallet: fresh.address, slippage_bps: 100 };
    expect((await codeOf(() => venue.trade(market, { ...base, wallet: '0x1234' }))) [0]).toBe('VALIDATION_ERROR');
    expect((await codeOf(() => venue.trade(market, { ...base, slippage_bps: 5001 })))[0]).toBe('VALIDATION_ERROR');
    expect((await codeOf(() => venue.trade(market, { ...base, slippage_bps: -1 })))[0]).toBe('VALIDATION_ERROR');
    expect((await codeOf(() => venue.trade(market, { ...base, slippage_bps: 1.5 })))[0]).toBe('VALIDATION_ERROR');
  });

  it('when the pool is paused on chain, then quotes answer MARKET_NOT_ACTIVE', async () => {
    const ctx = fx.port.context;
    await fx.port.waitForReceipt(await ctx.walletClient.writeContract({ address: fx.pool, abi: ammPoolAbi, functionName: 'setPaused', args: [true] }), 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [code, text] = await codeOf(() => venue.quote(market, { outcome: 1, side: 'BUY', amount: '1' }));
    expect([code, text]).toEqual(['MARKET_NOT_ACTIVE', 'The pool is paused']);
  });
});
