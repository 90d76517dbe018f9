import type { Hex } from 'viem';
import { binaryConditionId, binaryPositionIds, ConditionPreparer } from '../../src/markets/condition-preparer';

/**
 * TEST ONLY. A deterministic in-memory ConditionPreparer: computes the ids exactly as the
 * conditional-tokens contract would for `oracle` and `collateral`, without a chain. Tests that
 * need the real contract use the chain module (see test/admin/admin-markets-chain.test.ts).
 */
export const TEST_ORACLE = '0x00000000000000000000000000000000000000aa' as const;
export const TEST_COLLATERAL = '0x00000000000000000000000000000000000000c0' as const;

export function createTestConditionPreparer(collateral: Hex = TEST_COLLATERAL): ConditionPreparer & { prepared: Set<string> } {
  const prepared = new Set<string>();
  return {
    prepared,
    async prepareBinaryCondition(questionId) {
      const conditionId = binaryConditionId(TEST_ORACLE, questionId as Hex);
      prepared.add(conditionId);
      return { conditionId, ...binaryPositionIds(collateral, conditionId) };
    },
    async positionIdsOf(conditionId) {
      return binaryPositionIds(collateral, conditionId as Hex);
    },
  };
}
