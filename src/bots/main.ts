/**
 * `npm run bot -- --market <condition_id>`: one demo market maker against any market, as the
 * wallet `predex login` stored (or --url, --key, --api-key, --api-secret). Ctrl-C cancels its quotes.
 */
import { parseArgs } from 'node:util';
import { createPredexClient, PredexError } from '../client';
import { readCredentials } from '../cli/credentials-file';
import { MarketMaker } from './market-maker';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      market: { type: 'string' }, url: { type: 'string' }, key: { type: 'string' }, 'api-key': { type: 'string' }, 'api-secret': { type: 'string' },
      fair: { type: 'string' }, spread: { type: 'string' }, size: { type: 'string' }, 'step-ms': { type: 'string' },
    },
  });
  if (!values.market) throw new PredexError({ code: 'CLIENT_INPUT', message: 'usage: npm run bot -- --market <condition_id> [--fair 0.5] [--spread 4] [--size 5] [--step-ms 2000]' });
  const stored = readCredentials();
  const client = createPredexClient({
    baseUrl: values.url ?? stored?.url ?? 'http://127.0.0.1:8080',
    apiKey: values['api-key'] ?? stored?.api_key, apiSecret: values['api-secret'] ?? stored?.api_secret,
    privateKey: (values.key ?? stored?.private_key) as `0x${string}` | undefined,
  });
  const bot = new MarketMaker(client, {
    market: values.market, fairTicks: values.fair ? Math.round(Number(values.fair) * 100) : undefined,
    spreadTicks: values.spread ? Number(values.spread) : undefined, size: values.size, stepMs: values['step-ms'] ? Number(values['step-ms']) : undefined,
    log: (line) => process.stdout.write(`[bot] ${line}\n`),
  });
  const stop = () => void bot.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`[bot] quoting ${values.market}\n`);
  await bot.run();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof PredexError ? `error ${error.code}: ${error.message}` : String(error)}\n`);
  process.exit(error instanceof PredexError && error.code === 'CLIENT_INPUT' ? 2 : 1);
});
