/**
 * AMM and CLOB markets' operator life on the embedded stack (decisions section 9): the Market's
 * `amm` block with prices implied by the pool at a block; pause, close and reopen reaching the
 * pool so a wallet's direct pool buy is refused on chain; resolution reporting payouts so the
 * wallet's redeem through `POST /trade/redeem` pays, in both market kinds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createPublicClient, createWalletClient, defineChain, getAddress, http, maxUint256, parseUnits, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ammPoolAbi, collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { ammFundingWorkflowId } from '../../src/amm/amm-funding-input';
import { marketChainStatusWorkflowId } from '../../src/markets/market-chain-status-input';
import { marketSchema } from '../../src/markets/market.schemas';
import { compileSchema } from '../../src/validation/ajv';
import { runCli } from '../../src/ops/cli';
import { STACK_ADMIN_TOKEN, useTradingStack } from '../helpers/trading-stack';
import { testTemporalAddress } from '../helpers/test-temporal';

const E18 = 10n ** 18n;
const validMarket = compileSchema(marketSchema);

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('AMM and CLOB market operations on the embedded stack', () => {
  const stack = useTradingStack('ammops', { LOCAL_DEV_CHAIN: 'true' });
  let platform: Record<string, string>;
  let client: Client;

  beforeAll(async () => {
    client = new Client({ connection: await Connection.connect({ address: testTemporalAddress() }) });
    const issued = await stack().call('POST', '/admin/platform-keys', { admin: true, body: { name: 'ops test' } });
    platform = { 'fs-platform-key': issued.body.key_id, 'fs-platform-secret': issued.body.secret };
    expect(await send({ address: stack().chain.addresses.collateral, abi: collateralAbi, functionName: 'mint', args: [trader().account.address, 1000n * E18] })).toBe('success');
  });
  afterAll(async () => {
    await client?.connection.close();
  });

  let public_: PublicClient;
  const trader = () => {
    const account = privateKeyToAccount(stack().chain.accounts[6].privateKey);
    const chain = defineChain({ id: stack().chain.chainId, name: 'embedded', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: { default: { http: [stack().chain.rpcUrl] } } });
    return { account, wallet: createWalletClient({ chain, transport: http(stack().chain.rpcUrl), account }) };
  };
  const reader = () => (public_ ??= createPublicClient({ transport: http(stack().chain.rpcUrl), pollingInterval: 50 }) as PublicClient);
  async function platformCall(path: string, body: unknown) {
    const res = await fetch(`${stack().api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...platform }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }
  async function send(request: { address: Address; abi: readonly unknown[]; functionName: string; args?: readonly unknown[] }): Promise<'success' | 'reverted'> {
    const { wallet } = trader();
    let hash: Hex;
    try {
      hash = await wallet.writeContract({ ...request, gas: 500_000n } as never);
    } catch {
      return 'reverted';
    }
    return (await reader().waitForTransactionReceipt({ hash })).status;
  }
  const balanceOf = (id: string) => reader().readContract({
    address: stack().chain.addresses.conditionalTokens, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [trader().account.address, BigInt(id)],
  });
  const collateralOf = () => reader().readContract({ address: stack().chain.addresses.collateral, abi: collateralAbi, functionName: 'balanceOf', args: [trader().account.address] });

  async function openAmmMarket(): Promise<Record<string, any>> {
    const created = await stack().call('POST', '/admin/markets', {
      admin: true, body: { kind: 'AMM', question: `Pool ${Math.random()}?`, end_date: '2031-01-01T00:00:00Z', fee_rate_bps: 100, initial_liquidity: '1000' },
    });
    expect(created.status).toBe(201);
    expect(created.body.amm).toEqual({ pool_address: null, liquidity: '0', fee_rate_bps: 100, prices: null, block_number: null });
    // Prices come from the cached pool state: at most one head poll (250 ms) after the opening.
    return until('the AMM market to open', async () => (await stack().call('GET', `/v1/markets/${created.body.condition_id}`)).body, (m) => m.status === 'OPEN' && m.amm.prices !== null);
  }
  async function setStatus(conditionId: string, status: string, outcome?: 0 | 1) {
    const res = await stack().call('POST', `/admin/markets/${conditionId}/status`, { admin: true, body: { status, ...(outcome === undefined ? {} : { resolution_outcome: outcome }) } });
    expect(res.status).toBe(200);
    return res.body;
  }
  const buyYes = (pool: Address, amount: bigint) => send({ address: pool, abi: ammPoolAbi, functionName: 'buy', args: [amount, 1n, 0n] });
  const poolFlag = (pool: Address, functionName: 'paused' | 'closed') => reader().readContract({ address: pool, abi: ammPoolAbi, functionName });

  let amm: Record<string, any>;
  let pool: Address;

  it('when an AMM market opens and a wallet buys YES, then every Market response shows the pool prices at a block', async () => {
    amm = await openAmmMarket();
    pool = getAddress(amm.amm.pool_address);
    expect(amm.amm).toMatchObject({ liquidity: '1000', fee_rate_bps: 100, prices: ['0.5', '0.5'] });
    expect(validMarket(amm)).toBe(true);

    await send({ address: stack().chain.addresses.collateral, abi: collateralAbi, functionName: 'approve', args: [pool, maxUint256] });
    expect(await buyYes(pool, 200n * E18)).toBe('success');
    const after = await until('prices after the buy', async () => (await stack().call('GET', `/v1/markets/${amm.condition_id}`)).body, (m) => m.amm.prices[1] !== '0.5');
    const [b0, b1] = await reader().readContract({ address: pool, abi: ammPoolAbi, functionName: 'poolState', blockNumber: BigInt(after.amm.block_number) });
    const six = (n: bigint, d: bigint) => ((n * 10n ** 6n) / d).toString().padStart(7, '0').replace(/^(\d+)(\d{6})$/, '$1.$2').replace(/\.?0+$/, '');
    expect(after.amm.prices).toEqual([six(b1, b0 + b1), six(b0, b0 + b1)]);
    expect(Number(after.amm.prices[1])).toBeGreaterThan(0.5);

    const lists = await Promise.all([
      stack().call('GET', '/v1/markets?status=open&limit=100'),
      stack().call('GET', '/trade/markets?kind=amm&limit=100'),
      stack().call('GET', '/admin/markets?status=open&limit=100', { admin: true }),
    ]);
    for (const list of lists) {
      const item = list.body.data.find((m: { condition_id: string }) => m.condition_id === amm.condition_id);
      expect(item.amm).toMatchObject({ pool_address: amm.amm.pool_address, liquidity: '1000', fee_rate_bps: 100 });
      expect(item.amm.prices.map(Number).reduce((a: number, b: number) => a + b)).toBeCloseTo(1, 5);
    }
    const clob = lists[0].body.data.find((m: { amm?: unknown }) => m.amm === undefined);
    expect(clob).toBeDefined();
  });

  it('when the operator pauses, closes and reopens the AMM market, then the pool refuses and takes a direct buy in step', async () => {
    await setStatus(amm.condition_id, 'PAUSED');
    await until('the pool to pause', () => poolFlag(pool, 'paused'), (p) => p);
    expect(await buyYes(pool, E18)).toBe('reverted');

    await setStatus(amm.condition_id, 'OPEN');
    await until('the pool to unpause', () => poolFlag(pool, 'paused'), (p) => !p);
    expect(await buyYes(pool, E18)).toBe('success');

    await setStatus(amm.condition_id, 'CLOSED');
    await until('the closed market to pause the pool', () => poolFlag(pool, 'paused'), (p) => p);
    expect(await buyYes(pool, E18)).toBe('reverted');
    expect(await poolFlag(pool, 'closed')).toBe(false);
  });

  it('when the AMM market resolves YES, then the pool closes and the wallet redeem from /trade/redeem pays its YES balance', async () => {
    const yesId = amm.tokens.find((t: { outcome: number }) => t.outcome === 1).token_id as string;
    const yes = await balanceOf(yesId);
    expect(yes).toBeGreaterThan(0n);
    const refused = await stack().call('POST', '/trade/redeem', { body: { chain_id: amm.chain_id, condition_id: amm.condition_id, wallet: trader().account.address } });
    expect(refused.status).toBe(401);

    await setStatus(amm.condition_id, 'RESOLVED', 1);
    await until('the pool to close', () => poolFlag(pool, 'closed'), (c) => c);
    await redeemAndCheck(amm, yes, 1);

    if (process.env.RECORD_HISTORIES === '1') {
      const handle = client.workflow.getHandle(marketChainStatusWorkflowId(amm.chain_id, amm.condition_id));
      writeFileSync(join(__dirname, 'histories', 'market-chain-status.json'), JSON.stringify(await handle.fetchHistory()));
    }
  });

  it('when a CLOB market resolves NO, then the worker reports its payouts and the wallet redeem pays its NO balance', async () => {
    const created = await stack().call('POST', '/admin/markets', { admin: true, body: { question: `Book ${Math.random()}?`, end_date: '2031-01-01T00:00:00Z' } });
    expect(created.status).toBe(201);
    const market = created.body;
    const ctf = stack().chain.addresses.conditionalTokens;
    await send({ address: stack().chain.addresses.collateral, abi: collateralAbi, functionName: 'approve', args: [ctf, maxUint256] });
    expect(await send({ address: ctf, abi: conditionalTokensAbi, functionName: 'splitPosition', args: [stack().chain.addresses.collateral, market.condition_id, 30n * E18] })).toBe('success');

    await setStatus(market.condition_id, 'RESOLVED', 0);
    await redeemAndCheck(market, 30n * E18, 0);
  });

  async function ops(...argv: string[]): Promise<Record<string, any>> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { env: { OPS_BASE_URL: stack().api.url, ADMIN_TOKEN: STACK_ADMIN_TOKEN, OPS_OPERATOR: 'ops-test' }, fetch, out: (l) => out.push(l), err: (l) => err.push(l) });
    expect({ code, err: err.join('\n') }).toEqual({ code: 0, err: '' });
    return JSON.parse(out.join('\n'));
  }

  it('when the ops CLI creates, funds, pauses, closes and resolves an AMM market, then the pool follows on chain', async () => {
    const created = await ops('amm-create', '--question', `CLI pool ${Math.random()}?`, '--liquidity', '300', '--fee-rate-bps', '50');
    expect(created).toMatchObject({ status: 'SEEDING', fee_rate_bps: 50, amm: { pool_address: null } });
    const open = await until('the CLI market to open', async () => (await stack().call('GET', `/v1/markets/${created.condition_id}`)).body, (m) => m.status === 'OPEN' && m.amm.prices !== null);
    const cliPool = getAddress(open.amm.pool_address);
    const shares = () => reader().readContract({ address: cliPool, abi: ammPoolAbi, functionName: 'totalShares' });
    expect(await shares()).toBe(300n * E18);

    const funded = await ops('fund', created.condition_id, '200');
    expect(funded.amm).toMatchObject({ liquidity: '500', pool_address: open.amm.pool_address });
    expect(await shares()).toBe(500n * E18); // no trade yet: shares follow the collateral one to one
    if (process.env.RECORD_HISTORIES === '1') {
      const handle = client.workflow.getHandle(ammFundingWorkflowId(created.chain_id, created.condition_id));
      writeFileSync(join(__dirname, 'histories', 'amm-funding.json'), JSON.stringify(await handle.fetchHistory()));
    }

    expect((await ops('pause', created.condition_id)).status).toBe('PAUSED');
    await until('the CLI pool to pause', () => poolFlag(cliPool, 'paused'), (p) => p);
    expect((await ops('reopen', created.condition_id)).status).toBe('OPEN');
    await until('the CLI pool to reopen', () => poolFlag(cliPool, 'paused'), (p) => !p);
    expect((await ops('close', created.condition_id)).status).toBe('CLOSED');
    await until('the CLI pool to pause on close', () => poolFlag(cliPool, 'paused'), (p) => p);
    expect(await ops('resolve', created.condition_id, 'no')).toMatchObject({ status: 'RESOLVED' });
    await until('the CLI pool to close', () => poolFlag(cliPool, 'closed'), (c) => c);
    const denominator = await reader().readContract({ address: stack().chain.addresses.conditionalTokens, abi: conditionalTokensAbi, functionName: 'payoutDenominator', args: [created.condition_id] });
    expect(denominator).toBeGreaterThan(0n);
  });

  async function redeemAndCheck(market: Record<string, any>, winning: bigint, outcome: 0 | 1) {
    const body = { chain_id: market.chain_id, condition_id: market.condition_id, wallet: trader().account.address };
    const redeem = await until('payouts on chain', () => platformCall('/trade/redeem', body), (r) => r.status === 200);
    expect(parseUnits(redeem.body.payout, 18)).toBe(winning);
    const positions = async () => (await stack().call('GET', `/trade/positions?wallet=${trader().account.address}&status=resolved`)).body.data
      .filter((p: { condition_id: string }) => p.condition_id === market.condition_id);
    expect((await positions()).find((p: { outcome: number }) => p.outcome === outcome)).toMatchObject({ redeemable: true });

    const before = await collateralOf();
    const { wallet } = trader();
    const hash = await wallet.sendTransaction({ to: redeem.body.tx.to, data: redeem.body.tx.data });
    expect((await reader().waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await collateralOf()).toBe(before + winning);
    const tokenId = market.tokens.find((t: { outcome: number }) => t.outcome === outcome).token_id as string;
    expect(await balanceOf(tokenId)).toBe(0n);
    expect((await positions()).filter((p: { redeemable: boolean }) => p.redeemable)).toEqual([]);
  }
});
