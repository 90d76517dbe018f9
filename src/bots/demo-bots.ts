/**
 * The demo bots `npm start` runs on the embedded chain (DEMO_BOTS): two market makers on the demo
 * CLOB market, so a newcomer sees a live book, trades and settlements at once, and a pool bot that
 * trades the first OPEN AMM market now and then. Set-up uses the local chain's faucet, the
 * development JWT and the operator token (for the pool bot's platform key); the trading itself
 * goes through the public client only.
 */
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../config';
import { devAccounts } from '../chain';
import { chainPortFromConfig } from '../runtime/chain-from-config';
import { exitWithSupervisor } from '../supervisor/exit-with-supervisor';
import { createPredexClient, PredexError, type PredexClient } from '../client';
import { devJwt } from '../cli/dev-jwt';
import { localPlatformKey } from '../cli/local-stack';
import { DEMO_AMM_QUESTION, DEMO_QUESTION } from '../markets/demo-markets';
import { openDemoMarket } from './demo-market';
import { MarketMaker } from './market-maker';
import { PoolTrader } from './pool-trader';

/** Hardhat dev accounts 8 and 9 make the market, 7 trades the pool: far from #1, the README's account. */
const BOT_ACCOUNTS = [8, 9];
const POOL_ACCOUNT = 7;
const log = (line: string) => process.stdout.write(`[bots] ${line}\n`);

async function botClient(baseUrl: string, accountIndex: number, secret: string, platform?: { platformKey: string; platformSecret: string }): Promise<PredexClient> {
  const account = devAccounts()[accountIndex];
  const issued = await createPredexClient({ baseUrl, jwt: devJwt(account.address, secret) }).auth.createApiKey(['read', 'trade']);
  return createPredexClient({ baseUrl, apiKey: issued.key_id, apiSecret: issued.secret, privateKey: account.privateKey, ...platform });
}

/** The pool bot, when this process can issue a platform key; it waits for an OPEN AMM market itself. */
async function poolBot(baseUrl: string, rpcUrl: string, secret: string): Promise<PoolTrader | undefined> {
  const platform = await localPlatformKey(baseUrl, process.env, 'demo pool bot');
  if (!platform) {
    log('no operator token for a platform key: the pool bot is off');
    return undefined;
  }
  const account = devAccounts()[POOL_ACCOUNT];
  const wallet = createWalletClient({ account: privateKeyToAccount(account.privateKey), transport: http(rpcUrl) });
  const client = await botClient(baseUrl, POOL_ACCOUNT, secret, platform);
  return new PoolTrader(client, wallet, { market: () => openDemoMarket(client, 'AMM', DEMO_AMM_QUESTION), maxSpend: '5', reserve: '100', stepMs: 20_000, log });
}

async function main(): Promise<void> {
  exitWithSupervisor();
  const config = loadConfig();
  if (!config.AUTH_JWT_SECRET) throw new Error('the demo bots need AUTH_JWT_SECRET (npm start sets it)');
  const baseUrl = `http://${config.HOST}:${config.PORT}`;
  const port = chainPortFromConfig(config);
  for (const i of [...BOT_ACCOUNTS, POOL_ACCOUNT]) {
    const account = devAccounts()[i];
    await port.fundWallet(account.address, 100_000n * 10n ** 18n, { privateKey: account.privateKey });
  }
  const clients = await Promise.all(BOT_ACCOUNTS.map((i) => botClient(baseUrl, i, config.AUTH_JWT_SECRET!)));
  const market = await openDemoMarket(clients[0], 'CLOB', DEMO_QUESTION);
  if (!market) throw new Error('the demo order-book market is not open');
  log(`quoting ${market} with two bots (DEMO_BOTS=false turns them off)`);
  const bots = clients.map((client, i) => new MarketMaker(client, { market, fairTicks: 50 + i * 2, spreadTicks: 4, size: String(5 + i * 5), crossChance: 0.15, stepMs: 3_000 + i * 700, log }));
  const pool = await poolBot(baseUrl, port.context.config.rpcUrl, config.AUTH_JWT_SECRET);
  const stop = () => {
    pool?.stop();
    void Promise.all(bots.map((b) => b.stop())).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await Promise.all([...bots.map((b) => b.run()), pool?.run()]);
}

main().catch((error: unknown) => {
  log(error instanceof PredexError ? `stopped: ${error.code} ${error.message}` : `stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
