// Every workflow type the worker runs. Workflow type names are wire contracts: never rename one.
export { marketWorkflow } from './market/market.workflow';
export { settlementWorkflow } from './settlement.workflow';
// No longer started (the chain watcher replaced it); registered so watches started before still finish.
export { onchainCancelWorkflow } from './onchain-cancel.workflow';
export { chainWatcherWorkflow } from './chain-watcher.workflow';
export { heartbeatWorkflow } from './heartbeat.workflow';
export { tradeTxWorkflow } from './trade-tx.workflow';
export { ammMarketSetupWorkflow } from './amm-market-setup.workflow';
export { prepareConditionWorkflow } from './prepare-condition.workflow';
export { marketChainStatusWorkflow } from './market-chain-status.workflow';
export { ammFundingWorkflow } from './amm-funding.workflow';
export { poolWatcherWorkflow } from './pool-watcher.workflow';
