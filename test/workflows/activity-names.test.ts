/**
 * Running histories call activities by their registered names: a market or settlement activity
 * renamed or dropped would fail every workflow still running with the old name.
 */
import { createMarketActivities } from '../../activities/market.activities';
import { createSettlementActivities } from '../../activities/settlement.activities';

const unused = {} as never;

describe('registered activity names', () => {
  it('when the market activities are built, then they register exactly the names histories call', () => {
    const names = Object.keys(createMarketActivities({ collections: unused, publisher: unused, logger: unused })).sort();
    expect(names).toEqual([
      'applyMarketStatus', 'applyMatchBatch', 'holdHandoffs', 'loadCarriedResting', 'loadMarketState', 'loadOrdersForPlacement',
      'loadPendingSettlements', 'loadRestingPage', 'lookupOrders',
    ]);
  });

  it('when the settlement activities are built, then they register exactly the names histories call', () => {
    const names = Object.keys(createSettlementActivities({ collections: unused, publisher: unused, logger: unused, chain: unused })).sort();
    expect(names).toEqual([
      'awaitConfirmations', 'awaitConfirmationsOf', 'awaitReceipt', 'awaitReceipts', 'checkOrderOnChain', 'confirmFills', 'finishOrders',
      'loadReturnedOrders', 'markFills', 'markFillsOf', 'sendAndAwaitReceipts', 'sendSettlement', 'sendSettlements', 'unwindGroups',
    ]);
  });
});
