import { DEMO_AMM_QUESTION, DEMO_AMM_QUESTION_ID } from './demo-markets';
import type { Logger } from '../logging/logger';
import { createAmmMarket, type CreateAmmMarketDeps } from './create-amm-market';

export { DEMO_AMM_QUESTION_ID } from './demo-markets';

/**
 * Creates the demo AMM market beside the demo order-book market when it does not exist yet (the
 * embedded start calls it every time): recorded SEEDING, then the worker deploys and funds its
 * pool with the local default liquidity and opens it. Found by its fixed question id, so restarts
 * and concurrent processes create it once (the unique condition index lets one insert win).
 */
export async function seedDemoAmmMarket(deps: CreateAmmMarketDeps & { logger?: Logger }): Promise<'created' | 'skipped'> {
  const exists = () => deps.store.markets.exists({ question_id: DEMO_AMM_QUESTION_ID }).exec();
  if (await exists()) return 'skipped';
  const endDate = new Date((deps.now?.() ?? new Date()).getTime() + 90 * 24 * 3600 * 1000);
  try {
    const market = await createAmmMarket(deps, {
      question: DEMO_AMM_QUESTION,
      end_date: endDate.toISOString(),
      question_id: DEMO_AMM_QUESTION_ID,
      fee_rate_bps: 100,
      actor: 'seed',
      summary: { en: 'A demo AMM market created at first start: trade it through /trade.', cn: '首次启动时创建的演示 AMM 市场：通过 /trade 交易。' },
      rules: { en: 'Resolved by the operator at will. Not a real event.', cn: '由运营方随时结算。并非真实事件。' },
    });
    deps.logger?.info({ condition_id: market.condition_id, chain_id: market.chain_id }, 'demo AMM market created');
    return 'created';
  } catch (error) {
    // Another process seeded the same condition first.
    if (await exists()) return 'skipped';
    throw error;
  }
}
