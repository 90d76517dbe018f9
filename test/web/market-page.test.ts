/**
 * The live market page in a real headless Chromium against the embedded stack: the page is served
 * by the API, lists the demo market, and its book, trades, ticker and status follow orders placed
 * over HTTP, through the socket.io gateway.
 */
import type { Page } from 'puppeteer-core';
import { chainPortFromConfig } from '../../src/runtime/chain-from-config';
import { launchChromium } from '../helpers/chromium';
import { useTradingStack, type TradableMarket } from '../helpers/trading-stack';

const E18 = 10n ** 18n;
const TEMPORAL_UI = 'http://127.0.0.1:8233';
const DEMO_QUESTION = 'Will the demo market resolve YES?';

/** The rows of a table body as [price, size, total] (or whatever its cells hold). */
const rowsOf = (page: Page, selector: string) =>
  page.$$eval(`${selector} tbody tr`, (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));

/** Polls what the page shows until it is what is expected; the failure says what it showed instead. */
async function waitUntil<T>(what: string, read: () => Promise<T>, expected: T, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen: T | string = '(nothing)';
  while (Date.now() < deadline) {
    seen = await read().catch((error: unknown) => `(${String(error)})`);
    if (JSON.stringify(seen) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: the page shows ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
}

const waitForRows = (page: Page, selector: string, expected: string[][], what: string) => waitUntil(what, () => rowsOf(page, selector), expected);
const waitForText = (page: Page, selector: string, expected: string, what: string) => waitUntil(what, () => textOf(page, selector), expected);

const textOf = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? '');

describe('the live market page in Chromium', () => {
  const stack = useTradingStack('web', { LOCAL_DEV_CHAIN: 'true', TEMPORAL_UI_URL: TEMPORAL_UI });
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    // A script error, a refused resource or a CSP violation shows here; the page must have none.
    page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
  });

  it('when the page is requested, then the API serves it, its files, the socket.io client and its configuration', async () => {
    const { api } = stack();
    const root = await fetch(`${api.url}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toMatch(/^text\/html/);
    expect(root.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await root.text()).toContain('<script type="module" src="/web/app.js">');
    const script = await fetch(`${api.url}/web/app.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, expect.stringMatching(/javascript/)]);
    const client = await fetch(`${api.url}/v1/ws/socket.io.esm.min.js`);
    expect([client.status, client.headers.get('content-type')]).toEqual([200, expect.stringMatching(/javascript/)]);
    expect(await (await fetch(`${api.url}/web-config.json`)).json()).toEqual({
      chain_id: 56,
      ws_path: '/v1/ws',
      temporal_namespace: 'default',
      temporal_ui_url: TEMPORAL_UI,
    });
    expect((await fetch(`${api.url}/web/missing.js`)).status).toBe(404);
  });

  it('when orders are placed over HTTP, then the open page shows the book change, the trade, the ticker and the status', async () => {
    const { api, chain, config, call, jwtFor, signedItem } = stack();
    await page.goto(`${api.url}/`);
    const link = await page.waitForSelector(`::-p-xpath(//table[@id="markets"]//a[text()="${DEMO_QUESTION}"])`, { timeout: 30_000 });
    const listed = (await call('GET', '/v1/markets')).body.data as (TradableMarket & { question: string })[];
    const market = listed.find((m) => m.question === DEMO_QUESTION)!;
    expect(market).toBeDefined();
    await waitForText(page, '#connection', 'live', 'socket connected');

    await link!.click();
    await waitForText(page, '#market-status', 'OPEN', 'market status');
    expect(page.url()).toBe(`${api.url}/#/markets/${market.condition_id}?chain_id=56`);
    await waitUntil('book snapshot', async () => /^seq \d+$/.test(await textOf(page, '#book-seq')), true);
    await waitForRows(page, '#book-bids', [['No bids']], 'empty book');
    await waitForRows(page, '#trades', [['No trades yet']], 'no trades');
    const workflowId = `market-56-${market.condition_id.toLowerCase()}`;
    expect(await page.$eval('#workflow-link', (a) => [a.textContent, a.getAttribute('href')])).toEqual([
      workflowId,
      `${TEMPORAL_UI}/namespaces/default/workflows?query=${encodeURIComponent(`WorkflowId="${workflowId}"`)}`,
    ]);

    const [, alice, bob] = chain.accounts;
    const port = chainPortFromConfig(config);
    for (const trader of [alice, bob]) await port.fundWallet(trader.address, 100n * E18, { privateKey: trader.privateKey });
    const place = async (trader: typeof alice, terms: Parameters<typeof signedItem>[2]) => {
      const placed = await call('POST', '/v1/orders', { jwt: await jwtFor(trader.address), body: { orders: [signedItem(trader, market, terms).item] } });
      expect(placed.body.results?.[0]?.status).toBe('OPEN');
    };

    // Two bids rest: the page lists them best first, with exact running totals.
    await place(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    await place(alice, { side: 'BUY', outcome: 1, price: '0.55', size: '2.5' });
    await waitForRows(page, '#book-bids', [['0.6', '10', '10'], ['0.55', '2.5', '12.5']], 'bids after two orders');
    await waitForRows(page, '#book-asks', [['No asks']], 'no asks');

    // BUY NO at 0.4 is an ask for YES at 0.6: it takes the best bid, and the print shows once settled.
    await place(bob, { side: 'BUY', outcome: 0, price: '0.4', size: '10' });
    await waitForRows(page, '#book-bids', [['0.55', '2.5', '2.5']], 'bids after the cross');
    await waitForText(page, '#ticker-last-price', '0.6', 'last price');
    await waitUntil('the settled print', async () => (await rowsOf(page, '#trades')).map(([, price, size]) => [price, size]), [['0.6', '10']]);
    expect(await textOf(page, '#ticker-best-bid')).toBe('0.55');

    // The lifecycle follows the operator's pause.
    const paused = await call('POST', `/admin/markets/${market.condition_id}/status`, { admin: true, body: { status: 'PAUSED' } });
    expect(paused.status).toBe(200);
    await waitForText(page, '#market-status', 'PAUSED', 'market paused');
    expect(await textOf(page, '#market-status-meaning')).toMatch(/^Paused/);
    expect(problems).toEqual([]);
  }, 240_000);

  it('when a book delta skips a seq or sizes are summed, then the page\'s book code resnapshots and stays exact', async () => {
    const { api } = stack();
    await page.goto(`${api.url}/`);
    // A string, so that the module imports reach the browser as written (not as the test's CommonJS).
    const seen = await page.evaluate(`(async () => {
      const { LiveBook } = await import('/web/live-book.js');
      const { runningTotals, compareDecimal } = await import('/web/decimal.js');
      const book = new LiveBook();
      book.applySnapshot({ seq: 5, bids: [{ price: '0.4', remainingSize: '1' }], asks: [] });
      const next = book.applyDelta({ seq: 6, changes: [{ side: 'bid', price: '0.45', remainingSize: '0.1' }] });
      const again = book.applyDelta({ seq: 6, changes: [{ side: 'bid', price: '0.45', remainingSize: '9' }] });
      const bids = book.levels('bid');
      const gap = book.applyDelta({ seq: 8, changes: [] });
      const afterGap = book.applyDelta({ seq: 9, changes: [] });
      return { next, again, bids, gap, afterGap, seq: book.seq, totals: runningTotals(['0.1', '0.2', '0.000000000000000001']), order: compareDecimal('0.5', '0.45') };
    })()`);
    expect(seen).toEqual({
      next: 'applied',
      again: 'stale',
      bids: [{ price: '0.45', size: '0.1', total: '0.1' }, { price: '0.4', size: '1', total: '1.1' }],
      gap: 'gap',
      afterGap: 'stale',
      seq: null,
      totals: ['0.1', '0.3', '0.300000000000000001'],
      order: 1,
    });
  });
});
