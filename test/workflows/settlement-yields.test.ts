import { createMarketActivities } from '../../activities/market.activities';
import { createSettlementActivities } from '../../activities/settlement.activities';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import { fillIdOf, marketKeyOf } from '../../src/matching/market-ids';
import { createStepPriority, type StepPriority } from '../../src/matching/step-priority';
import { UNCONFIGURED_CHAIN } from '../../src/settlement/settlement-port';
import { useTestDatabase } from '../helpers/test-database';
import { logger, newMarket, pendingFill, RecordingPublisher } from './market-harness';

/** A step priority that records what the activities tell it, and otherwise behaves as the real one. */
function recordingPriority(inner: StepPriority): StepPriority & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    stepStarted: (market) => {
      calls.push(`started ${market}`);
      inner.stepStarted(market);
    },
    stepEnded: (market) => {
      calls.push(`ended ${market}`);
      inner.stepEnded(market);
    },
    quiet: () => inner.quiet(),
  };
}

describe('settlement\'s database commands wait for the market steps of their worker', () => {
  const { db } = useTestDatabase('settlement_yields');

  async function setup() {
    const collections = matchingCollections(db());
    await ensureMatchingIndexes(collections);
    const publisher = new RecordingPublisher();
    // A wait bound far above the test's own waits: settlement goes only when the step ends.
    const priority = recordingPriority(createStepPriority({ maxWaitMs: 60_000 }));
    const market = newMarket();
    const settlement = createSettlementActivities({ collections, publisher, logger, chain: UNCONFIGURED_CHAIN, priority });
    const steps = createMarketActivities({ collections, publisher, logger, priority });
    const tradeId = `${marketKeyOf(market)}:1`;
    const at = new Date();
    const fill = (role: 'maker' | 'taker') => pendingFill(market, tradeId, role, { at, orderHash: `0x${role}` });
    await collections.fills.insertMany([fill('maker'), fill('taker')]);
    const statusOfTaker = async () => (await collections.fills.findOne({ _id: fillIdOf(tradeId, 'taker') }))?.settlement_status;
    return { market, settlement, steps, priority, tradeId, statusOfTaker };
  }

  test('when a step is under way, then a settlement write waits for its end, and goes then', async () => {
    const { market, settlement, priority, tradeId, statusOfTaker } = await setup();
    priority.stepStarted(marketKeyOf(market));
    let written = false;
    const write = settlement.markFillsOf({ groups: [{ tradeIds: [tradeId], txHash: '0xaa' }], status: 'CONFIRMED' }).then(() => {
      written = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(written).toBe(false);
    expect(await statusOfTaker()).toBe('PENDING');
    priority.stepEnded(marketKeyOf(market));
    await write;
    expect(await statusOfTaker()).toBe('CONFIRMED');
  });

  test('when a step\'s load places nothing, then it holds no settlement back', async () => {
    const { market, settlement, steps, priority, tradeId, statusOfTaker } = await setup();
    const key = marketKeyOf(market);
    const load = await steps.loadOrdersForPlacement({ market, hashes: [`0x${'ab'.repeat(32)}`] });
    expect(load.rows).toEqual([]);
    expect(priority.calls).toEqual([`started ${key}`, `ended ${key}`]);
    await settlement.markFillsOf({ groups: [{ tradeIds: [tradeId], txHash: '0xaa' }], status: 'CONFIRMED' });
    expect(await statusOfTaker()).toBe('CONFIRMED');
  });

  test('when a step\'s write fails, then its mark still ends', async () => {
    const { market, steps, priority } = await setup();
    const key = marketKeyOf(market);
    // A write without engine counters throws before it writes anything.
    await expect(steps.applyMatchBatch({
      market, decimals: 18, at: Date.now(), orders: [], direct: [], trades: [], book: [], ticker: null, counters: undefined as never,
    })).rejects.toThrow();
    expect(priority.calls).toEqual([`started ${key}`, `ended ${key}`]);
    const quiet = await Promise.race([priority.quiet().then(() => 'quiet'), new Promise((resolve) => setTimeout(resolve, 200, 'held'))]);
    expect(quiet).toBe('quiet');
  });
});
