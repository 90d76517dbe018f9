/**
 * An order's whole story: a maker matched in two settlement batches, neither of which it is the
 * first taker of, is found by its hash and its wallet through Temporal's visibility, and
 * `npm run ops -- order <hash>` prints its timeline with both batches, their transactions and runs,
 * each linked in the Temporal UI by the rules of config/temporal-ui-url.ts.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { startApiServer, type RunningApi } from '../../src/api/server';
import { orderTimelineRoutes } from '../../src/admin/order-timeline.routes';
import { marketKeyOf, marketWorkflowId, settlementWorkflowId } from '../../src/matching/market-ids';
import { runCli } from '../../src/ops/cli';
import type { OrderTimeline } from '../../src/ops/order-timeline';
import { eventually } from '../helpers/eventually';
import { useMarketWorkflowStack } from '../helpers/market-workflow-stack';
import { insertMarket, logger, newMarket, persist, saveHistory, wallet } from '../workflows/market-harness';

const ADMIN_TOKEN = 'timeline-admin-token-0123456789abcdef';
const UI = 'http://ui.test:8233';

describe('an order\'s timeline', () => {
  const stack = useMarketWorkflowStack('timeline', { settlementRetryDelayMs: 100 });
  let api: RunningApi;
  const apis: RunningApi[] = [];

  /** An API serving the timeline with `uiUrl` as the Temporal UI base URL it was configured with. */
  async function timelineApi(uiUrl: string | undefined): Promise<RunningApi> {
    const started = await startApiServer({
      host: '127.0.0.1', port: 0, logger, readiness: [],
      rootRouters: [orderTimelineRoutes({ adminToken: ADMIN_TOKEN, collections: stack.h.collections, client: stack.h.client, namespace: 'default', uiUrl })],
    });
    apis.push(started);
    return started;
  }

  beforeAll(async () => {
    api = await timelineApi(UI);
  });
  afterAll(async () => {
    for (const a of apis) await a.close();
  });

  async function ops(argv: string[], baseUrl = api.url) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { env: { OPS_BASE_URL: baseUrl, ADMIN_TOKEN }, fetch, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  const settled = (id: string) => eventually(`${id} completed`, async () => {
    const d = await stack.h.client.workflow.getHandle(id).describe().catch(() => null);
    return d?.status.name === 'COMPLETED' ? d : null;
  }, { timeoutMs: 30_000 });

  const listed = async (query: string) => {
    const ids: string[] = [];
    for await (const w of stack.h.client.workflow.list({ query })) ids.push(w.workflowId);
    return ids.sort();
  };

  test('when a maker is matched in a later batch, then visibility finds that batch by its hash and wallet, and ops prints it', async () => {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const makerWallet = wallet();
    const [maker, first] = await persist(stack.db(), market, [
      { wallet: makerWallet, side: 'SELL', price: 55, size: '3' },
      { wallet: wallet(), side: 'BUY', price: 55, size: '1' },
    ]);
    await stack.matcher.submit(market, [maker.order_hash, first.order_hash]);
    const batch1 = settlementWorkflowId(`${marketKeyOf(market)}:1`);
    await settled(batch1);
    const [later] = await persist(stack.db(), market, [{ wallet: wallet(), side: 'BUY', price: 55, size: '1' }]);
    await stack.matcher.submit(market, [later.order_hash]);
    const batch2 = settlementWorkflowId(`${marketKeyOf(market)}:2`);
    await settled(batch2);

    // The first-taker attribute names the other orders only; the lists name the maker in both batches.
    expect(await listed(`OrderHash = "${maker.order_hash}"`)).toEqual([]);
    expect(await listed(`OrderHash = "${later.order_hash}"`)).toEqual([batch2]);
    const both = [batch1, batch2].sort();
    await eventually('the batches listed by the maker\'s hash', async () => (await listed(`OrderHashes = "${maker.order_hash}"`)).length === 2, { timeoutMs: 20_000 });
    expect(await listed(`OrderHashes = "${maker.order_hash}"`)).toEqual(both);
    expect(await listed(`Wallets = "${makerWallet}"`)).toEqual(both);
    expect(await listed(`OrderHashes = "${later.order_hash}"`)).toEqual([batch2]);
    await saveHistory(stack.h, batch2, 'settlement-lists-parties.json');

    const json = await ops(['order', maker.order_hash, '--json']);
    expect(json).toMatchObject({ code: 0, err: '' });
    const timeline = JSON.parse(json.out) as OrderTimeline;
    expect(timeline).toMatchObject({ order_hash: maker.order_hash, wallet: makerWallet, status: 'PARTIALLY_FILLED' });
    expect(timeline.found_by_hash.map((w) => w.workflow_id).sort()).toEqual(both);
    expect(timeline.events.map((e) => e.step)).toEqual(['ACCEPTED', 'REACHED_BOOK', 'FILL', 'FILL', 'NOW']);
    const fills = timeline.events.filter((e) => e.step === 'FILL');
    expect(fills.map((e) => [e.workflow?.workflow_id, e.workflow?.status, e.fill?.role, e.fill?.settlement_status])).toEqual([
      [batch1, 'COMPLETED', 'maker', 'CONFIRMED'],
      [batch2, 'COMPLETED', 'maker', 'CONFIRMED'],
    ]);
    const run2 = (await stack.h.client.workflow.getHandle(batch2).describe()).runId;
    expect(fills[1].workflow?.url).toBe(`${UI}/namespaces/default/workflows/${encodeURIComponent(batch2)}/${run2}/history`);
    expect(fills.every((e) => /^0x[0-9a-f]{64}$/.test(e.fill?.tx_hash ?? ''))).toBe(true);
    const marketRun = (await stack.h.client.workflow.getHandle(marketWorkflowId(market)).describe()).runId;
    expect(timeline.events[1].workflow).toMatchObject({ workflow_id: marketWorkflowId(market), run_id: marketRun });

    const text = await ops(['order', maker.order_hash]);
    expect(text.code).toBe(0);
    const lines = text.out.split('\n');
    expect(lines[0]).toContain(`order ${maker.order_hash}`);
    const batch2Line = lines.find((l) => l.includes(`[${batch2} COMPLETED]`));
    expect(batch2Line).toContain(fills[1].fill!.tx_hash!);
    expect(batch2Line).toContain(fills[1].workflow!.url);
    expect(lines.find((l) => /reached book/.test(l))).toContain(`${marketWorkflowId(market)}/${marketRun}/history`);
  }, 90_000);

  test('when the taker ends FILLED, then the final line names the batch that settled it', async () => {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const [maker, taker] = await persist(stack.db(), market, [
      { wallet: wallet(), side: 'SELL', price: 40, size: '2' },
      { wallet: wallet(), side: 'BUY', price: 40, size: '2' },
    ]);
    await stack.matcher.submit(market, [maker.order_hash, taker.order_hash]);
    const batch = settlementWorkflowId(`${marketKeyOf(market)}:1`);
    await settled(batch);
    const timeline = await eventually('the taker FILLED', async () => {
      const res = await ops(['order', taker.order_hash, '--json']);
      const t = JSON.parse(res.out) as OrderTimeline;
      return t.status === 'FILLED' ? t : null;
    }, { timeoutMs: 20_000 });
    const final = timeline.events[timeline.events.length - 1];
    expect(final).toMatchObject({ step: 'FINAL', summary: 'ended FILLED', workflow: { workflow_id: batch, status: 'COMPLETED' } });
  }, 60_000);

  test('when a batch lists 1,000 order hashes, then the server takes the list', async () => {
    const hashes = Array.from({ length: 1_000 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
    // Started on a queue no worker polls: the server checks the attributes when it takes the start.
    const handle = await stack.h.client.workflow.start('settlementWorkflow', {
      taskQueue: `${stack.taskQueue}-idle`, workflowId: `timeline-list-${Date.now()}`, args: [],
      typedSearchAttributes: [{ key: defineSearchAttributeKey('OrderHashes', SearchAttributeType.KEYWORD_LIST), value: hashes }],
    });
    await handle.terminate();
    expect(Buffer.byteLength(JSON.stringify(hashes))).toBeGreaterThan(2 * 1024 * 30);
  });

  test('when the Temporal UI listens on every interface, then ops links it by the host that reached the API; with no UI, each step names its run without a link', async () => {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const [order] = await persist(stack.db(), market, [{ wallet: wallet(), side: 'BUY', price: 30, size: '1' }]);
    await stack.matcher.submit(market, [order.order_hash]);
    const bookLine = (baseUrl: string) =>
      eventually('the order on the book', async () => (await ops(['order', order.order_hash], baseUrl)).out.split('\n').find((l) => l.includes('reached book')));
    const everyInterface = await timelineApi('http://0.0.0.0:8233/');
    expect(await bookLine(everyInterface.url)).toContain(`] http://127.0.0.1:8233/namespaces/default/workflows/${marketWorkflowId(market)}/`);
    const noUi = await timelineApi(undefined);
    const line = await bookLine(noUi.url);
    expect(line).toMatch(new RegExp(`\\[${marketWorkflowId(market)} RUNNING\\]$`));
  });

  test('when the order is unknown or the hash malformed, then ops says so', async () => {
    const unknown = await ops(['order', `0x${'ab'.repeat(32)}`]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/404 NOT_FOUND/);
    expect((await ops(['order', '0x1234'])).code).toBe(2);
  });
});
