/**
 * Prepares a market's condition on chain for the API (`prepare-condition-{chain_id}-{question_id}`):
 * the operator key that signs it lives in the worker only. One chain call, retried by its preset;
 * preparing is idempotent, so a second run for the same question answers the same condition.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ConditionActivities, PreparedConditionView } from '../activities/condition.activities';
import { CHAIN_CALL } from './activity-presets';

const chain = proxyActivities<ConditionActivities>(CHAIN_CALL);

export async function prepareConditionWorkflow(input: { questionId: string }): Promise<PreparedConditionView> {
  return chain.prepareCondition({ questionId: input.questionId });
}
