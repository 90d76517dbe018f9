/** What every `predex` command shares: its flags, the client built from the stored login, output. */
import { parseArgs } from 'node:util';
import { createPredexClient, PredexError, type Market, type PredexClient } from '../client';
import { readCredentials, type StoredCredentials } from './credentials-file';

export const OPTIONS = {
  url: { type: 'string' }, json: { type: 'boolean' }, watch: { type: 'boolean' }, depth: { type: 'string' },
  outcome: { type: 'string' }, type: { type: 'string' }, 'post-only': { type: 'boolean' }, 'client-id': { type: 'string', multiple: true },
  expires: { type: 'string' }, wait: { type: 'boolean' }, market: { type: 'string' }, all: { type: 'boolean' }, status: { type: 'string' },
  key: { type: 'string' }, jwt: { type: 'string' }, help: { type: 'boolean', short: 'h' },
  slippage: { type: 'string' }, rpc: { type: 'string' }, 'platform-key': { type: 'string' }, 'platform-secret': { type: 'string' },
} as const;

export type Flags = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export const usage = (message: string) => new PredexError({ code: 'CLIENT_INPUT', message });
export const out = (line: string): void => void process.stdout.write(`${line}\n`);
export const progress = (line: string): void => void process.stderr.write(`${line}\n`);

export class Cli {
  /** The login's credentials, when they are for this URL. */
  readonly stored?: StoredCredentials;
  readonly url: string;
  readonly client: PredexClient;

  constructor(readonly flags: Flags) {
    const stored = readCredentials();
    this.url = flags.url ?? process.env.PREDEX_URL ?? stored?.url ?? 'http://127.0.0.1:8080';
    this.stored = stored && (!flags.url || flags.url === stored.url) ? stored : undefined;
    const s = this.stored;
    this.client = createPredexClient({
      baseUrl: this.url, apiKey: s?.api_key, apiSecret: s?.api_secret, privateKey: s?.private_key,
      platformKey: process.env.PREDEX_PLATFORM_KEY ?? s?.platform_key, platformSecret: process.env.PREDEX_PLATFORM_SECRET ?? s?.platform_secret,
    });
  }

  print(value: unknown, human: () => string): void {
    out(this.flags.json ? JSON.stringify(value, null, 2) : human());
  }

  async market(id: string | undefined): Promise<Market> {
    if (!id) throw usage('name a market: its condition id or a unique prefix (see `predex markets`)');
    if (/^0x[0-9a-fA-F]{64}$/.test(id)) return this.client.markets.get(id);
    const page = await this.client.markets.list({ limit: 100 });
    const found = page.data.filter((m) => m.condition_id.toLowerCase().startsWith(id.toLowerCase()));
    if (found.length !== 1) throw usage(`${found.length === 0 ? 'no open market' : 'several markets'} match "${id}"`);
    return found[0];
  }
}
