/**
 * `predex` run as a process against the running exchange: log in (credentials file mode 0600),
 * rest a bid, cross it from a second wallet with --wait until it settles, and a trader's mistake
 * prints the server's code and what to do, with its exit code and no stack trace. On an AMM market
 * it quotes and trades through the pool from the wallet, with a progress line while the chain works.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STACK_ADMIN_TOKEN } from '../helpers/trading-stack';
import { JWT_SECRET, useClientStack } from './client-stack';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

function predex(configDir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, [join(ROOT, 'src', 'cli', 'main.ts'), ...args], { env: { ...process.env, PREDEX_CONFIG_DIR: configDir, AUTH_JWT_SECRET: JWT_SECRET, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the predex command line', () => {
  const stack = useClientStack('cli');

  it('when two wallets log in and cross with the CLI, then the taker waits until the trade settles', async () => {
    const s = stack();
    const [alice, bob] = [await s.trader(3), await s.trader(4)];
    const aliceDir = mkdtempSync(join(tmpdir(), 'predex-a-'));
    const bobDir = mkdtempSync(join(tmpdir(), 'predex-b-'));
    const login = await predex(aliceDir, ['login', '--key', alice.privateKey, '--url', s.url]);
    expect(login.stderr).toBe('');
    expect(login.stdout).toContain(`logged in as ${alice.address}`);
    expect(statSync(join(aliceDir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect((await predex(bobDir, ['login', '--key', bob.privateKey, '--url', s.url])).code).toBe(0);

    const prefix = s.market.slice(0, 12);
    const markets = await predex(aliceDir, ['markets', '--json']);
    expect(JSON.parse(markets.stdout).data.map((m: { condition_id: string }) => m.condition_id)).toContain(s.market);
    const bid = await predex(aliceDir, ['buy', prefix, '5', '0.6', '--json']);
    expect(bid.code).toBe(0);
    expect(JSON.parse(bid.stdout)).toMatchObject({ status: 'OPEN', price: '0.6' });

    const take = await predex(bobDir, ['buy', prefix, '5', '0.4', '--outcome', 'no', '--wait']);
    expect(take.code).toBe(0);
    expect(take.stderr).toContain('waiting for the match and the chain');
    expect(take.stdout).toMatch(/FILLED: 5 @ 0\.4, 0 left/);
    const fills = await predex(bobDir, ['fills']);
    expect(fills.stdout).toMatch(/taker\s+BUY\s+NO\s+0\.4\s+5/);
  }, 180_000);

  it('when a trader makes a mistake, then the CLI prints the code, the message and what to do, with a meaningful exit code', async () => {
    const s = stack();
    const dir = mkdtempSync(join(tmpdir(), 'predex-c-'));
    const notLoggedIn = await predex(dir, ['orders', '--url', s.url]);
    expect(notLoggedIn.code).toBe(4);
    expect(notLoggedIn.stderr).toMatch(/^error AUTH_MISSING: .*\n {2}what to do: run `predex login/);
    await predex(dir, ['login', '--key', (await s.trader(7)).privateKey, '--url', s.url]);
    const tooBig = await predex(dir, ['buy', s.market, '1000000', '0.5']);
    expect(tooBig.code).toBe(1);
    expect(tooBig.stderr).toContain('error INSUFFICIENT_BALANCE');
    expect(tooBig.stderr).toContain('what to do: fund the wallet');
    const subTick = await predex(dir, ['buy', s.market, '1', '0.555']);
    expect(subTick.code).toBe(1);
    expect(subTick.stderr).toContain('error PRICE_OUT_OF_RANGE');
    for (const run of [notLoggedIn, tooBig, subTick]) expect(run.stderr).not.toMatch(/\n\s+at /);
    expect((await predex(dir, ['buy', '--bogus'])).code).toBe(2);
  }, 120_000);

  it('when a trader quotes both kinds and buys and sells on an AMM market, then the pool trades from the wallet and each ends CONFIRMED', async () => {
    const s = stack();
    const amm = await s.ammMarket();
    const [trader, maker] = [await s.trader(8), await s.trader(9)];
    const dir = mkdtempSync(join(tmpdir(), 'predex-d-'));
    const makerDir = mkdtempSync(join(tmpdir(), 'predex-e-'));
    const local = { ADMIN_TOKEN: STACK_ADMIN_TOKEN, PREDEX_RPC_URL: s.chain.rpcUrl };
    const login = await predex(dir, ['login', '--key', trader.privateKey, '--url', s.url], local);
    expect(login.stdout).toMatch(/platform key \S+ \(AMM trades\)/);
    expect((await predex(makerDir, ['login', '--key', maker.privateKey, '--url', s.url])).code).toBe(0);
    expect((await predex(makerDir, ['buy', s.market, '5', '0.5'])).code).toBe(0);

    const poolQuote = await predex(dir, ['quote', amm, 'buy', 'yes', '10']);
    expect(poolQuote.code).toBe(0);
    expect(poolQuote.stdout).toMatch(/^BUY YES for 10 collateral \(pool, block \d+\)\n {2}shares received +\d/);
    const bookQuote = JSON.parse((await predex(dir, ['quote', s.market, 'sell', 'yes', '2', '--json'])).stdout);
    expect(bookQuote).toMatchObject({ kind: 'CLOB', side: 'SELL', amount: '2', price_before: '0.5' });

    const bought = await predex(dir, ['buy', amm, '10']);
    expect(bought.code).toBe(0);
    expect(bought.stderr).toMatch(/pool transaction 0x[0-9a-f]{64} sent; waiting for the chain/);
    expect(bought.stdout).toMatch(/^bought YES for 10 from the pool \(quoted [\d.]+ shares, average [\d.]+\): tx 0x[0-9a-f]{64} CONFIRMED/);
    const sold = await predex(dir, ['sell', amm, '1', '--outcome', 'yes', '--slippage', '300', '--json']);
    expect(sold.code).toBe(0);
    expect(JSON.parse(sold.stdout)).toMatchObject({ saved: { status: 'CONFIRMED' }, trade: { kind: 'AMM', quote: { side: 'SELL', amount: '1' } } });

    const mistakes = await Promise.all([
      predex(dir, ['quote', amm, 'buy', 'maybe', '10']),
      predex(dir, ['buy', amm, '10', '0.5']),
      predex(dir, ['quote', amm, 'buy', 'yes', '0']),
    ]);
    expect(mistakes.map((m) => m.code)).toEqual([2, 2, 1]);
    expect(mistakes[2].stderr).toContain('error VALIDATION_ERROR');
    for (const run of [bought, sold, ...mistakes]) expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 180_000);
});
