// Every workflow type the worker runs. Workflow type names are wire contracts: never rename one.
export { marketWorkflow } from './market.workflow';
export { settlementWorkflow } from './settlement.workflow';
export { onchainCancelWorkflow } from './onchain-cancel.workflow';
export { heartbeatWorkflow } from './heartbeat.workflow';
