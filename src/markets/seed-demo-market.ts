import { DEMO_QUESTION, DEMO_QUESTION_ID } from './demo-markets';
import type { Logger } from '../logging/logger';
import { createMarket, CreateMarketDeps } from './create-market';

export { DEMO_QUESTION_ID } from './demo-markets';

/**
 * Creates one demo market when the markets collection is empty; otherwise does nothing. Safe to
 * call at every start and from several processes at once: the fixed question id gives the same
 * condition_id, and the unique (chain_id, condition_id) index lets only one insert win.
 */
export async function seedDemoMarket(deps: CreateMarketDeps & { logger?: Logger }): Promise<'created' | 'skipped'> {
  if ((await deps.store.markets.estimatedDocumentCount().exec()) > 0) return 'skipped';
  const endDate = new Date((deps.now?.() ?? new Date()).getTime() + 90 * 24 * 3600 * 1000);
  try {
    const market = await createMarket(deps, {
      question: DEMO_QUESTION,
      end_date: endDate.toISOString(),
      question_id: DEMO_QUESTION_ID,
      actor: 'seed',
      summary: { en: 'A demo market created at first start, for trying the API.', cn: '首次启动时创建的演示市场，用于试用 API。' },
      rules: { en: 'Resolved by the operator at will. Not a real event.', cn: '由运营方随时结算。并非真实事件。' },
    });
    deps.logger?.info({ condition_id: market.condition_id, chain_id: market.chain_id }, 'demo market created');
    return 'created';
  } catch (error) {
    // Another process seeded the same condition first.
    if ((await deps.store.markets.estimatedDocumentCount().exec()) > 0) return 'skipped';
    throw error;
  }
}
