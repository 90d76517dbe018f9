/**
 * The demo AMM market of the embedded start: created once, SEEDING with its pool setup started,
 * and skipped on every later start and by a concurrent process.
 */
import type { AmmMarketSetupInput } from '../../src/amm/amm-setup-input';
import { createChainRegistry } from '../../src/markets/chains';
import { createMarketStore } from '../../src/markets/market-store';
import { DEMO_AMM_QUESTION_ID, seedDemoAmmMarket } from '../../src/markets/seed-demo-amm-market';
import { seedDemoMarket } from '../../src/markets/seed-demo-market';
import { TEST_CHAIN } from '../api/app-harness';
import { createTestConditionPreparer } from '../api/test-condition-preparer';
import { useTestDatabase } from '../helpers/test-database';

describe('seedDemoAmmMarket', () => {
  const database = useTestDatabase('seedamm');

  it('when the demo order-book market exists and two starts seed at once, then exactly one demo AMM market is set up, and later starts skip', async () => {
    const store = createMarketStore(database.db());
    await store.markets.init();
    const setups: AmmMarketSetupInput[] = [];
    const preparer = createTestConditionPreparer();
    const deps = {
      store, chains: createChainRegistry([TEST_CHAIN]), preparerFor: () => preparer, localChain: true,
      ammSetup: { start: async (input: AmmMarketSetupInput) => void setups.push(input) },
    };
    expect(await seedDemoMarket(deps)).toBe('created');
    const results = await Promise.all([seedDemoAmmMarket(deps), seedDemoAmmMarket(deps)]);
    expect(results.sort()).toEqual(['created', 'skipped']);
    expect(await seedDemoAmmMarket(deps)).toBe('skipped');

    const amm = await store.markets.find({ kind: 'AMM' }).lean().exec();
    expect(amm).toHaveLength(1);
    expect(amm[0]).toMatchObject({ question_id: DEMO_AMM_QUESTION_ID, status: 'SEEDING', fee_rate_bps: 100 });
    expect(setups).toEqual([expect.objectContaining({ condition_id: amm[0].condition_id, liquidity: (1000n * 10n ** 18n).toString(), mint: true })]);
    expect(await store.markets.countDocuments({ kind: 'CLOB' }).exec()).toBe(1);
  });
});
