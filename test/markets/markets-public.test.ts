import { compileSchema } from '../../src/validation/ajv';
import {
  bookSnapshotSchema,
  marketPageSchema,
  marketSchema,
  publicTradePageSchema,
  standaloneTickerSchema,
  tokensResponseSchema,
} from '../../src/markets/market.schemas';
import { createMarket } from '../../src/markets/create-market';
import { createChainRegistry } from '../../src/markets/chains';
import { useTestDatabase } from '../helpers/test-database';
import { call, Harness, startHarness, TEST_CHAIN } from '../api/app-harness';
import { createTestConditionPreparer } from '../api/test-condition-preparer';

const conformsTo = (schema: object) => {
  const validate = compileSchema(schema);
  return (body: unknown) => {
    if (!validate(body)) throw new Error(`response does not match its schema: ${JSON.stringify(validate.errors)}`);
  };
};
const isMarket = conformsTo(marketSchema);
const isMarketPage = conformsTo(marketPageSchema);

describe('public market routes (L0)', () => {
  const database = useTestDatabase('markets');
  let harness: Harness;
  const created: string[] = [];
  let clock = Date.parse('2026-01-01T00:00:00.000Z');

  async function addMarket(question: string, status: 'OPEN' | 'PAUSED' | 'CLOSED' | 'SEEDING' = 'OPEN', extra: Record<string, unknown> = {}) {
    const market = await createMarket(
      { store: harness.modules.store, chains: createChainRegistry([TEST_CHAIN]), preparerFor: () => createTestConditionPreparer(), now: () => new Date(clock) },
      { question, end_date: '2027-01-01T00:00:00.000Z', status, summary: { en: `${question} (en)`, cn: `${question} (中文)` }, rules: { en: 'Rules en' }, ...extra },
    );
    created.push(market.condition_id);
    return market;
  }

  beforeAll(async () => {
    harness = await startHarness(database.db());
    for (let i = 0; i < 5; i += 1) await addMarket(`Open market ${i}?`); // distinct created_at
    clock += 1000;
    await addMarket('Same-time A?');
    await addMarket('Same-time B?'); // same created_at as A: the tie-breaker orders them
    clock += 1000;
    await addMarket('Paused market?', 'PAUSED');
    await addMarket('Closed market?', 'CLOSED');
  });
  afterAll(async () => harness.close());

  test('when listing without a status, then only OPEN markets are returned, newest first, in the page envelope', async () => {
    const res = await call(`${harness.url}/v1/markets`);
    expect(res.status).toBe(200);
    isMarketPage(res.body);
    expect(res.body.data).toHaveLength(7);
    expect(res.body.data.every((m: { status: string }) => m.status === 'OPEN')).toBe(true);
    const times = res.body.data.map((m: { created_at: string }) => m.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(res.body).toMatchObject({ has_more: false, next_cursor: '' });
  });

  test('when the status filter is given in any case, then it selects that status', async () => {
    const res = await call(`${harness.url}/v1/markets?status=PaUsEd`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { question: string }) => m.question)).toEqual(['Paused market?']);
    const closed = await call(`${harness.url}/v1/markets?status=closed&chain_id=56`);
    expect(closed.body.data.map((m: { status: string }) => m.status)).toEqual(['CLOSED']);
  });

  test('when paging with limit 3, then pages are disjoint, stable across equal timestamps, and cover every open market', async () => {
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const res = await call(`${harness.url}/v1/markets?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      isMarketPage(res.body);
      seen.push(...res.body.data.map((m: { condition_id: string }) => m.condition_id));
      cursor = res.body.next_cursor;
      expect(res.body.has_more).toBe(cursor !== '');
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
  });

  test('when the cursor is malformed, then it is ignored and the first page is returned', async () => {
    const first = await call(`${harness.url}/v1/markets?limit=2`);
    for (const bad of ['not-base64!!', 'e30', Buffer.from('["nope","x"]').toString('base64url')]) {
      const res = await call(`${harness.url}/v1/markets?limit=2&cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(first.body.data);
    }
  });

  test.each([['0'], ['101'], ['abc'], ['1.5'], ['-1']])('when limit is %s, then 422 VALIDATION_ERROR', async (limit) => {
    const res = await call(`${harness.url}/v1/markets?limit=${limit}`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status_code: 422, path: '/v1/markets' });
  });

  test('when an unknown query parameter or an unknown status value is sent, then 422 VALIDATION_ERROR', async () => {
    expect((await call(`${harness.url}/v1/markets?colour=red`)).body.code).toBe('VALIDATION_ERROR');
    expect((await call(`${harness.url}/v1/markets?status=seeding`)).body.code).toBe('VALIDATION_ERROR');
    expect((await call(`${harness.url}/v1/markets?status=open&status=closed`)).body.code).toBe('VALIDATION_ERROR');
  });

  test('when the chain is unknown, then NOT_FOUND on the list and on a market', async () => {
    const list = await call(`${harness.url}/v1/markets?chain_id=1`);
    expect(list.status).toBe(404);
    expect(list.body.code).toBe('NOT_FOUND');
    const one = await call(`${harness.url}/v1/markets/${created[0]}?chain_id=1`);
    expect(one.body.code).toBe('NOT_FOUND');
  });

  test('when getting a market, then it has exactly the spec fields, no database id, no kind, and a null ticker', async () => {
    const res = await call(`${harness.url}/v1/markets/${created[0]}`);
    expect(res.status).toBe(200);
    isMarket(res.body);
    expect(res.body).not.toHaveProperty('_id');
    expect(res.body).not.toHaveProperty('kind');
    expect(res.body.ticker).toBeNull();
    expect(res.body.tokens.map((t: { outcome_label: string }) => t.outcome_label)).toEqual(['NO', 'YES']);
    expect(res.body.tokens[0].decimals).toBe(18);
  });

  test('when X-Language is cn, then summary is Chinese; when unknown, English; a missing translation falls back to English', async () => {
    const cn = await call(`${harness.url}/v1/markets/${created[0]}`, { headers: { 'x-language': 'CN' } });
    expect(cn.body.summary).toBe('Open market 0? (中文)');
    expect(cn.body.rules).toBe('Rules en');
    const unknown = await call(`${harness.url}/v1/markets/${created[0]}`, { headers: { 'x-language': 'fr' } });
    expect(unknown.body.summary).toBe('Open market 0? (en)');
    const list = await call(`${harness.url}/v1/markets?limit=1`, { headers: { 'x-language': 'cn' } });
    expect(list.body.data[0].summary).toMatch(/中文/);
  });

  test('when the market is unknown, then NOT_FOUND; when the condition id is malformed, then VALIDATION_ERROR', async () => {
    const unknown = await call(`${harness.url}/v1/markets/0x${'ab'.repeat(32)}/tokens`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    const malformed = await call(`${harness.url}/v1/markets/0x1234/book`);
    expect(malformed.status).toBe(422);
  });

  test('when a market is paused or closed, then GET by id still returns it', async () => {
    const list = await call(`${harness.url}/v1/markets?status=paused`);
    const res = await call(`${harness.url}/v1/markets/${list.body.data[0].condition_id}`);
    expect(res.body.status).toBe('PAUSED');
  });

  test('when getting tokens, then the market tokens with their position ids are returned', async () => {
    const res = await call(`${harness.url}/v1/markets/${created[1]}/tokens?chain_id=56`);
    expect(res.status).toBe(200);
    conformsTo(tokensResponseSchema)(res.body);
    expect(res.body.tokens[0].token_id).not.toBe(res.body.tokens[1].token_id);
  });

  test('when the book is empty, then bids and asks are empty and seq is 0', async () => {
    const res = await call(`${harness.url}/v1/markets/${created[1]}/book`);
    expect(res.status).toBe(200);
    conformsTo(bookSnapshotSchema)(res.body);
    expect(res.body).toMatchObject({ bids: [], asks: [], seq: 0, chain_id: 56, condition_id: created[1] });
  });

  test('when the matcher has written levels, then the book shows them best first in shares, limited by depth', async () => {
    const key = { chain_id: 56, condition_id: created[2] };
    const E18 = 10n ** 18n;
    await harness.modules.store.bookLevels.insertMany([
      { ...key, side: 'BID', price: '0.4', ticks: 40, remaining: (5n * E18).toString(), seq: 3 },
      { ...key, side: 'BID', price: '0.45', ticks: 45, remaining: (E18 / 2n).toString(), seq: 4 },
      { ...key, side: 'BID', price: '0.1', ticks: 10, remaining: '0', seq: 5 },
      { ...key, side: 'ASK', price: '0.6', ticks: 60, remaining: (12n * E18).toString(), seq: 6 },
      { ...key, side: 'ASK', price: '0.55', ticks: 55, remaining: (E18 / 10n).toString(), seq: 7 },
    ]);
    await harness.modules.store.bookStates.create({ ...key, seq: 7, updated_at: new Date() });
    const res = await call(`${harness.url}/v1/markets/${created[2]}/book`);
    conformsTo(bookSnapshotSchema)(res.body);
    expect(res.body.seq).toBe(7);
    expect(res.body.bids).toEqual([{ price: '0.45', remainingSize: '0.5' }, { price: '0.4', remainingSize: '5' }]);
    expect(res.body.asks).toEqual([{ price: '0.55', remainingSize: '0.1' }, { price: '0.6', remainingSize: '12' }]);
    const shallow = await call(`${harness.url}/v1/markets/${created[2]}/book?depth=1`);
    expect(shallow.body.bids).toHaveLength(1);
    expect(shallow.body.asks).toEqual([{ price: '0.55', remainingSize: '0.1' }]);
  });

  test.each([['0'], ['501'], ['x']])('when book depth is %s, then 422 VALIDATION_ERROR', async (depth) => {
    const res = await call(`${harness.url}/v1/markets/${created[2]}/book?depth=${depth}`);
    expect(res.status).toBe(422);
  });

  test('when there is no ticker cache, then the standalone ticker has nulls and the embedded ticker is null', async () => {
    const res = await call(`${harness.url}/v1/markets/${created[3]}/ticker`);
    expect(res.status).toBe(200);
    conformsTo(standaloneTickerSchema)(res.body);
    expect(res.body).toMatchObject({ best_bid: null, best_ask: null, last_price: null, spread: null, display_price_yes: null, display_price_no: null });
  });

  test('when the matcher has cached a ticker, then standalone is snake_case strings and embedded is camelCase numbers', async () => {
    await harness.modules.store.tickers.create({
      chain_id: 56, condition_id: created[3], best_bid: '0.42', best_ask: '0.45', last_price: '0.43', updated_at: new Date('2026-02-01T00:00:00Z'),
    });
    const standalone = await call(`${harness.url}/v1/markets/${created[3]}/ticker`);
    conformsTo(standaloneTickerSchema)(standalone.body);
    expect(standalone.body).toEqual({
      condition_id: created[3], chain_id: 56, best_bid: '0.42', best_ask: '0.45', last_price: '0.43', spread: '0.03',
      display_price_yes: '0.435', display_price_no: '0.565', timestamp: '2026-02-01T00:00:00.000Z',
    });
    const market = await call(`${harness.url}/v1/markets/${created[3]}`);
    isMarket(market.body);
    expect(market.body.ticker).toEqual({ bestBid: 0.42, bestAsk: 0.45, lastPrice: 0.43, spread: 0.03, displayPriceYES: 0.435, displayPriceNO: 0.565 });
  });

  test('when trades exist, then only settled (CONFIRMED) prints are listed, newest first, with sizes in shares and paging', async () => {
    const key = { chain_id: 56, condition_id: created[4] };
    const E18 = 10n ** 18n;
    await harness.modules.store.trades.insertMany([
      { ...key, trade_id: 't1', price: '0.5', size: (2n * E18).toString(), settlement_status: 'CONFIRMED', created_at: new Date('2026-03-01T00:00:01Z') },
      { ...key, trade_id: 't2', price: '0.51', size: (E18 / 4n).toString(), settlement_status: 'CONFIRMED', created_at: new Date('2026-03-01T00:00:02Z') },
      { ...key, trade_id: 't3', price: '0.52', size: E18.toString(), settlement_status: 'PENDING', created_at: new Date('2026-03-01T00:00:03Z') },
      { ...key, trade_id: 't4', price: '0.53', size: E18.toString(), settlement_status: 'CONFIRMED', created_at: new Date('2026-03-01T00:00:02Z') },
    ]);
    const first = await call(`${harness.url}/v1/markets/${created[4]}/trades?limit=2`);
    expect(first.status).toBe(200);
    conformsTo(publicTradePageSchema)(first.body);
    expect(first.body.data.map((t: { trade_id: string }) => t.trade_id)).toEqual(['t4', 't2']);
    expect(first.body.data[1]).toEqual({ trade_id: 't2', condition_id: created[4], chain_id: 56, price: '0.51', size: '0.25', created_at: '2026-03-01T00:00:02.000Z' });
    expect(first.body.has_more).toBe(true);
    const second = await call(`${harness.url}/v1/markets/${created[4]}/trades?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((t: { trade_id: string }) => t.trade_id)).toEqual(['t1']);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: '' });
  });

  test('when a market has no trades, then the trades page is empty', async () => {
    const res = await call(`${harness.url}/v1/markets/${created[0]}/trades`);
    expect(res.body).toEqual({ data: [], next_cursor: '', has_more: false });
  });
});
