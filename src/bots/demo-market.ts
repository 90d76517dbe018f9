/**
 * The demo bots trade only the markets `npm start` seeded for them: the newest open market may be
 * an operator's or a test's, and bots quoting there would take other traders' orders. A seeded
 * market is the oldest open market of its kind with its question (seeding creates it first, once).
 */
import type { PredexClient } from '../client';

/** The condition id of the oldest OPEN market of `kind` asking `question`, or undefined while there is none. */
export async function openDemoMarket(client: PredexClient, kind: 'CLOB' | 'AMM', question: string): Promise<string | undefined> {
  let oldest: string | undefined;
  for (let cursor: string | undefined; ;) {
    const page = await client.markets.list({ status: 'open', limit: 100, ...(cursor ? { cursor } : {}) });
    // Newest first: the last match seen is the oldest.
    for (const m of page.data) if (m.question === question && (m.amm ? 'AMM' : 'CLOB') === kind) oldest = m.condition_id;
    if (!page.has_more) return oldest;
    cursor = page.next_cursor;
  }
}
