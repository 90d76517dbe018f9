import { openDemoMarket } from '../../src/bots/demo-market';
import { DEMO_AMM_QUESTION, DEMO_QUESTION } from '../../src/markets/demo-markets';
import type { PredexClient } from '../../src/client';

interface Row { condition_id: string; question: string; amm?: object }

/** A client whose public market list answers `pages` (newest first), one per cursor. */
function listing(pages: Row[][]): PredexClient {
  return {
    markets: {
      list: async ({ cursor }: { cursor?: string }) => {
        const i = cursor ? Number(cursor) : 0;
        return { data: pages[i], has_more: i + 1 < pages.length, next_cursor: String(i + 1) };
      },
    },
  } as unknown as PredexClient;
}

describe('the market the demo bots trade', () => {
  const pages: Row[][] = [
    [{ condition_id: '0xtest', question: 'crash' }, { condition_id: '0xcopy', question: DEMO_QUESTION }],
    [{ condition_id: '0xpool', question: DEMO_AMM_QUESTION, amm: {} }, { condition_id: '0xdemo', question: DEMO_QUESTION }],
  ];

  test('when newer open markets exist, among them one asking the demo question, then the bots quote the oldest order-book market with it', async () => {
    await expect(openDemoMarket(listing(pages), 'CLOB', DEMO_QUESTION)).resolves.toBe('0xdemo');
  });

  test('when the pool bot looks, then it finds the demo AMM market and never an order-book one', async () => {
    await expect(openDemoMarket(listing(pages), 'AMM', DEMO_AMM_QUESTION)).resolves.toBe('0xpool');
    await expect(openDemoMarket(listing(pages), 'AMM', DEMO_QUESTION)).resolves.toBeUndefined();
  });

  test('when no demo market is open, then there is none to trade (not the newest market)', async () => {
    await expect(openDemoMarket(listing([[{ condition_id: '0xtest', question: 'crash' }]]), 'CLOB', DEMO_QUESTION)).resolves.toBeUndefined();
  });
});
