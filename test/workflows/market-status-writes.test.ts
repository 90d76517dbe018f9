/**
 * A market's status change is two writes (its audit row claims the next version, then the market
 * row takes it) with no transaction. These tests leave a claim without its second write, as a run
 * terminated between the two does, and check that the next change is not stopped by it.
 */
import { createMarketActivities } from '../../activities/market.activities';
import { ensureMatchingIndexes, matchingCollections } from '../../src/matching/collections';
import type { StatusWrite } from '../../src/matching/payloads';
import { useTestDatabase } from '../helpers/test-database';
import { insertMarket, logger, newMarket, RecordingPublisher } from './market-harness';

describe('market status writes', () => {
  const { db } = useTestDatabase('status_writes');

  async function setup() {
    const collections = matchingCollections(db());
    await ensureMatchingIndexes(collections);
    const market = newMarket();
    await insertMarket(db(), market, 'OPEN');
    const steps = createMarketActivities({ collections, publisher: new RecordingPublisher(), logger });
    const change = (change_id: string, to_status: StatusWrite['to_status']): StatusWrite => ({
      market, change_id, from_status: 'OPEN', to_status, resolution_outcome: null, actor: 'operator', at: Date.now(),
    });
    const version = (n: number) => `${market.chain_id}:${market.condition_id}:v${n}`;
    return { collections, market, steps, change, version };
  }

  test('when a terminated run claimed the next version but never applied it, then the next change voids that claim, takes the version and applies', async () => {
    const { collections, market, steps, change, version } = await setup();
    const dead = 'market-x:run-dead:status:1';
    await collections.statusChanges.insertOne({
      change_id: version(1), ...market, from_status: 'OPEN', to_status: 'CLOSED', resolution_outcome: null, actor: 'operator', via: 'market-workflow', workflow_change_id: dead, at: new Date(),
    });

    await steps.applyMarketStatus(change('market-x:run-new:status:1', 'PAUSED'));

    expect(await collections.markets.findOne(market)).toMatchObject({ status: 'PAUSED', status_version: 1, status_change_id: 'market-x:run-new:status:1' });
    expect(await collections.statusChanges.findOne({ change_id: version(1) })).toMatchObject({ to_status: 'PAUSED', workflow_change_id: 'market-x:run-new:status:1' });
    expect(await collections.statusChanges.findOne({ change_id: `${version(1)}:void:${dead}` })).toMatchObject({ to_status: 'CLOSED', workflow_change_id: dead, voided_at: expect.any(Date) });
  });

  test('when a change is applied again (an activity retry), then nothing more is written; the next change takes the next version', async () => {
    const { collections, market, steps, change, version } = await setup();
    const first = change('market-x:run-a:status:1', 'PAUSED');
    await steps.applyMarketStatus(first);
    await steps.applyMarketStatus(first);
    expect(await collections.statusChanges.countDocuments({ condition_id: market.condition_id })).toBe(1);
    await steps.applyMarketStatus({ ...change('market-x:run-a:status:2', 'OPEN'), from_status: 'PAUSED' });
    expect(await collections.markets.findOne(market)).toMatchObject({ status: 'OPEN', status_version: 2 });
    expect(await collections.statusChanges.findOne({ change_id: version(2) })).toMatchObject({ from_status: 'PAUSED', to_status: 'OPEN' });
  });
});
