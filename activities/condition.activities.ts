import type { Hex } from 'viem';
import type { PreparedCondition } from '../src/chain/conditions';
import type { BinaryPositionIds } from '../src/markets/condition-preparer';

/** A prepared condition as a workflow carries it (no bigint in payloads). */
export type PreparedConditionView = { conditionId: string } & BinaryPositionIds;

/** What preparing needs of the chain: the worker's port, which holds the operator key. */
export interface ConditionChain {
  prepareCondition(questionId: Hex): Promise<PreparedCondition>;
}

export function createConditionActivities(deps: { chain: () => ConditionChain }) {
  return {
    async prepareCondition(q: { questionId: string }): Promise<PreparedConditionView> {
      const prepared = await deps.chain().prepareCondition(q.questionId as Hex);
      return { conditionId: prepared.conditionId.toLowerCase(), yesTokenId: prepared.yesTokenId.toString(), noTokenId: prepared.noTokenId.toString() };
    },
  };
}

export type ConditionActivities = ReturnType<typeof createConditionActivities>;
