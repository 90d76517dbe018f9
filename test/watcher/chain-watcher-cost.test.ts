/**
 * What one scan costs, against the real store and a counting fake chain: the work follows the
 * wallets the block's logs name, not the number of open orders on the exchange.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Address, Hex } from 'viem';
import { createChainWatcherActivities, type ScanResult, type WatchChain } from '../../activities/chain-watcher.activities';
import type { WatchedEvent } from '../../src/chain/watched-events';
import { createLogger } from '../../src/logging/logger';
import { matchingCollections } from '../../src/matching/collections';
import { useTestDatabase } from '../helpers/test-database';

const E18 = 10n ** 18n;
const CONDITION = `0x${'ab'.repeat(32)}`;
const hashOf = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const walletOf = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`;

function openBuy(n: number, wallet: string, minute: number) {
  return {
    _id: hashOf(n), order_hash: hashOf(n), wallet, chain_id: 56, condition_id: CONDITION, market_key: `56-${CONDITION}`, side: 'BUY', token_id: '7',
    price_ticks: 50, fee_rate_bps: 0, remaining_units: (10n * E18).toString(), nonce: '0', status: 'OPEN', created_at: new Date(Date.UTC(2026, 0, 1, 0, minute)),
  };
}

describe('the cost of one chain scan', () => {
  const database = useTestDatabase('watchcost');

  test('when 2,000 orders of 200 other wallets are open, then a block naming one wallet reads that wallet alone: its orders, one funds read', async () => {
    const c = matchingCollections(database.db());
    const attacker = walletOf(1);
    const others = Array.from({ length: 2_000 }, (_, i) => openBuy(1_000 + i, walletOf(100 + (i % 200)), i % 60));
    await c.orders.insertMany([...others, openBuy(1, attacker, 0), openBuy(2, attacker, 1), openBuy(3, attacker, 2)] as never[]);

    const reads = { funds: [] as string[], nonces: 0, documents: 0 };
    const events: WatchedEvent[] = [
      { kind: 'funds', wallet: attacker },
      { kind: 'funds', wallet: attacker },
      { kind: 'funds', wallet: walletOf(99_999) }, // no open orders: no chain read
    ];
    const chain: WatchChain = {
      chainId: 56,
      blockRef: (at) => Promise.resolve({ number: at === 'latest' ? 11n : at, hash: hashOf(at === 'latest' ? 11 : Number(at)) }),
      events: () => Promise.resolve(events),
      funds: (wallet) => {
        reads.funds.push(wallet);
        return Promise.resolve({ collateral: 6n * E18, tokens: {} });
      },
      nonce: () => {
        reads.nonces += 1;
        return Promise.resolve(0n);
      },
    };
    // Counts the order documents the scan reads from the store.
    const find = c.orders.find.bind(c.orders);
    c.orders.find = ((...args: Parameters<typeof find>) => {
      const cursor = find(...args);
      const toArray = cursor.toArray.bind(cursor);
      cursor.toArray = async () => {
        const docs = await toArray();
        reads.documents += docs.length;
        return docs;
      };
      return cursor;
    }) as typeof c.orders.find;

    const { watchChain } = createChainWatcherActivities({ collections: c, chain: () => chain, logger: createLogger({ level: 'silent' }) });
    const result: ScanResult = await new MockActivityEnvironment().run(watchChain, {
      chainId: 56, cursor: { block: '10', hash: hashOf(10) }, reorgDepth: 1, maxBlocks: 1_000, pollMs: 10, windowMs: 0,
    });

    expect(result).toMatchObject({ cursor: { block: '11', hash: hashOf(11) }, caughtUp: true, reorged: false, events: 3, checked: 1 });
    // 6 collateral covers one of the three BUYs of 5: the two newest go.
    expect(result.removals).toEqual([{ market: { chain_id: 56, condition_id: CONDITION }, reason: 'BALANCE_CHANGED', hashes: [hashOf(3), hashOf(2)] }]);
    expect(reads.funds).toEqual([attacker.toLowerCase()]);
    expect(reads.nonces).toBe(0);
    // The attacker's three orders, read before and after the chain read: none of the 2,000 others.
    expect(reads.documents).toBe(6);
  });
});
