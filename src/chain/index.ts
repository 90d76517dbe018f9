export type { ChainAddresses, ChainPortConfig } from './chain-config';
export { createChainPort, type ChainPort } from './create-chain-port';
export { createChainContext, type ChainContext } from './chain-context';
export { ChainRevertError, toChainError } from './chain-errors';
export { conditionIdOf, positionIdOf, outcomeTokenIds } from './position-ids';
export {
  fillAmountFor, matchSubmissionFromTrades, orderFillFor, orderFillOfLeg, sumFills, type SettlementLeg, type SettlementTrade,
} from './fill-amounts';
export { fundWallet, type FundWalletOptions } from './fund-wallet';
export { deployContracts, type DeployOptions } from './deploy-contracts';
export { cancelOrderCalldata, incrementNonceCalldata } from './cancel-order-calldata';
export { questionIdOf, type PreparedCondition } from './conditions';
export type { WalletBalances } from './read-wallet-balances';
export type { OnChainOrderStatus } from './exchange-reads';
export type { MatchSubmission, OrderFill } from './submit-match';
export { matchLegsOf, type LegBlame, type LegFailure, type MatchLeg } from './blame-legs';
export type { SettlementReceipt } from './wait-for-receipt';
export type { ReceiptState } from './get-receipt-state';
export type { CancelOrNonceEvent } from './cancel-and-nonce-events';
export { startLocalChain, type LocalChain, type LocalChainOptions, type LocalDeployment } from './local/start-local-chain';
export { devAccounts, DEV_MNEMONIC, type DevAccount } from './local/dev-accounts';
