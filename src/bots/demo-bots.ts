/**
 * The demo bots `npm start` runs on the embedded chain (DEMO_BOTS): two market makers on the demo
 * market, so a newcomer sees a live book, trades and settlements at once. Set-up uses the local
 * chain's faucet and the development JWT; the trading itself goes through the public client only.
 */
import { loadConfig } from '../config';
import { devAccounts } from '../chain';
import { chainPortFromConfig } from '../runtime/chain-from-config';
import { exitWithSupervisor } from '../supervisor/exit-with-supervisor';
import { createPredexClient, PredexError, type PredexClient } from '../client';
import { devJwt } from '../cli/dev-jwt';
import { MarketMaker } from './market-maker';

/** Hardhat dev accounts 8 and 9: far from #1, the account the README's first steps use. */
const BOT_ACCOUNTS = [8, 9];
const log = (line: string) => process.stdout.write(`[bots] ${line}\n`);

async function botClient(baseUrl: string, accountIndex: number, secret: string): Promise<PredexClient> {
  const account = devAccounts()[accountIndex];
  const issued = await createPredexClient({ baseUrl, jwt: devJwt(account.address, secret) }).auth.createApiKey(['read', 'trade']);
  return createPredexClient({ baseUrl, apiKey: issued.key_id, apiSecret: issued.secret, privateKey: account.privateKey });
}

async function main(): Promise<void> {
  exitWithSupervisor();
  const config = loadConfig();
  if (!config.AUTH_JWT_SECRET) throw new Error('the demo bots need AUTH_JWT_SECRET (npm start sets it)');
  const baseUrl = `http://${config.HOST}:${config.PORT}`;
  const port = chainPortFromConfig(config);
  for (const i of BOT_ACCOUNTS) {
    const account = devAccounts()[i];
    await port.fundWallet(account.address, 100_000n * 10n ** 18n, { privateKey: account.privateKey });
  }
  const clients = await Promise.all(BOT_ACCOUNTS.map((i) => botClient(baseUrl, i, config.AUTH_JWT_SECRET!)));
  // The order-book market: the demo AMM market beside it trades against its pool, not a book.
  const market = (await clients[0].markets.list({ limit: 100 })).data.find((m) => m.amm === undefined);
  if (!market) throw new Error('no open order-book market to quote');
  log(`quoting ${market.condition_id} with two bots (DEMO_BOTS=false turns them off)`);
  const bots = clients.map((client, i) => new MarketMaker(client, { market: market.condition_id, fairTicks: 50 + i * 2, spreadTicks: 4, size: String(5 + i * 5), crossChance: 0.15, stepMs: 3_000 + i * 700, log }));
  const stop = () => void Promise.all(bots.map((b) => b.stop())).then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await Promise.all(bots.map((b) => b.run()));
}

main().catch((error: unknown) => {
  log(error instanceof PredexError ? `stopped: ${error.code} ${error.message}` : `stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
