/**
 * The "place your first order from code" block of docs/client.md, run as written (its import of
 * `predex/client` pointed at src/client) against the running exchange.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPredexClient } from '../../src/client';
import { useClientStack } from './client-stack';

const ROOT = join(__dirname, '..', '..');

describe('docs/client.md', () => {
  const stack = useClientStack('docs');

  it('when the first-order example runs as written, then it places, sees the order rest and cancels it', async () => {
    const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8'))![1];
    expect(block.split('\n').length).toBeLessThanOrEqual(25);
    const file = join(mkdtempSync(join(tmpdir(), 'docs-example-')), 'example.mts');
    writeFileSync(file, block.replace("'predex/client'", JSON.stringify(join(ROOT, 'src', 'client', 'index.ts'))));
    const s = stack();
    const trader = await s.trader(2);
    const key = await createPredexClient({ baseUrl: s.url, jwt: await s.jwt(trader.address) }).auth.createApiKey(['read', 'trade']);
    // Asynchronous: the API runs in this process and must keep answering while the example runs.
    const run = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'tsx'), [file], {
      encoding: 'utf8', timeout: 60_000,
      env: { ...process.env, PREDEX_URL: s.url, PREDEX_API_KEY: key.key_id, PREDEX_API_SECRET: key.secret, PREDEX_PRIVATE_KEY: trader.privateKey },
    });
    expect(run.stdout).toMatch(/placed 0x[0-9a-f]{64} OPEN/);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('on the book: OPEN 10 left');
    expect(run.stdout).toMatch(/best bid 0\.05/);
  }, 180_000);
});
