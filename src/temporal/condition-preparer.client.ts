import type { Client } from '@temporalio/client';
import type { BinaryPositionIds, ConditionPreparer } from '../markets/condition-preparer';

/** How long market creation waits for the worker to prepare a condition. */
const PREPARE_TIMEOUT = '2 minutes';

/**
 * The API's ConditionPreparer: preparing sends a transaction signed by the operator key, which
 * only the worker holds, so it runs there (`prepareConditionWorkflow`) and the API waits for the
 * answer. Reading an existing condition's position ids needs no key and stays in `reads`.
 */
export function workflowConditionPreparer(client: Client, taskQueue: string, chainId: number, reads: ConditionPreparer): ConditionPreparer {
  return {
    async prepareBinaryCondition(questionId) {
      const prepared: { conditionId: string } & BinaryPositionIds = await client.workflow.execute('prepareConditionWorkflow', {
        taskQueue, workflowId: `prepare-condition-${chainId}-${questionId.toLowerCase()}`, args: [{ questionId }],
        workflowExecutionTimeout: PREPARE_TIMEOUT, workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
      return prepared;
    },
    positionIdsOf: (conditionId) => reads.positionIdsOf(conditionId),
  };
}
