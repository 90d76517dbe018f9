import { runCli } from '../../src/ops/cli';
import { useTestDatabase } from '../helpers/test-database';
import { ADMIN_TOKEN, Harness, startHarness } from '../api/app-harness';

describe('operator CLI against the running admin API', () => {
  const database = useTestDatabase('opscli');
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(database.db());
  });
  afterAll(async () => harness.close());

  async function run(argv: string[], env: Record<string, string | undefined> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      env: { OPS_BASE_URL: harness.url, ADMIN_TOKEN, OPS_OPERATOR: 'carol', ...env },
      fetch,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  test('when create-market, set-status and list-markets run, then the market is created, resolved and listed', async () => {
    const created = await run(['create-market', '--question', 'CLI market?', '--end-date', '2027-06-01T00:00:00Z', '--summary-en', 'From the CLI', '--summary-cn', '来自命令行', '--fee-rate-bps', '50']);
    expect(created.code).toBe(0);
    const market = JSON.parse(created.out);
    expect(market).toMatchObject({ question: 'CLI market?', fee_rate_bps: 50, status: 'OPEN', summary: 'From the CLI' });
    const paused = await run(['set-status', market.condition_id, 'paused', '--chain-id', '56']);
    expect(paused.code).toBe(0);
    expect(JSON.parse(paused.out).status).toBe('PAUSED');
    const resolved = await run(['set-status', market.condition_id, 'resolved', '--outcome', '1']);
    expect(JSON.parse(resolved.out).status).toBe('RESOLVED');
    const audit = await harness.modules.store.statusChanges.find({ condition_id: market.condition_id, actor: 'carol' }).lean().exec();
    expect(audit.map((a) => a.to_status).sort()).toEqual(['OPEN', 'PAUSED', 'RESOLVED']); // creation is audited too
    const listed = await run(['list-markets', '--status', 'resolved']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out).map((m: { condition_id: string }) => m.condition_id)).toEqual([market.condition_id]);
  });

  test('when the API refuses, then the CLI prints the error code and exits 1', async () => {
    const res = await run(['set-status', `0x${'00'.repeat(32)}`, 'paused']);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/404 NOT_FOUND/);
    const wrongToken = await run(['list-markets'], { ADMIN_TOKEN: 'not-the-token' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.err).toMatch(/AUTH_INVALID/);
  });

  test('when the command or its options are wrong, or ADMIN_TOKEN is unset, then it prints usage and exits 2', async () => {
    expect((await run(['launch-rocket'])).code).toBe(2);
    expect((await run(['create-market', '--question', 'no end date'])).code).toBe(2);
    expect((await run(['list-markets', '--bogus'])).code).toBe(2);
    expect((await run(['list-markets'], { ADMIN_TOKEN: undefined })).code).toBe(2);
  });
});
