/**
 * viem clients for one deployment. The http transport batches concurrent requests into one
 * JSON-RPC batch (so a balance check's parallel eth_calls cost one round trip), and the operator
 * account's transactions go through one `OperatorSender`, so concurrent settlements from one
 * process reach the node in nonce order. The operator signs natively (src/signing/native-signing-account.ts).
 */
import { timedChainFetch } from '../metrics/chain-fetch';
import { createPublicClient, createWalletClient, defineChain, http, zeroAddress, type Chain, type PublicClient, type WalletClient, type Account, type Transport } from 'viem';
import { toAccount } from 'viem/accounts';
import { nativeSigningAccount } from '../signing/native-signing-account';
import type { ChainPortConfig } from './chain-config';
import { OperatorSender } from './operator-sender';

export interface ChainContext {
  config: ChainPortConfig;
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
  operator: Account;
  /** Every operator transaction is sent through this (it picks the nonce). */
  operatorSender: OperatorSender;
}

export function chainOf(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: chainId === 56 ? 'BNB Smart Chain' : `chain ${chainId}`,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export function transportOf(config: Pick<ChainPortConfig, 'rpcUrl' | 'requestTimeoutMs'>): Transport {
  // retryCount 0: the caller (activity retry policy) owns retries; a dead node fails fast as SERVICE_DEGRADED.
  return http(config.rpcUrl, { batch: { wait: 0 }, retryCount: 0, timeout: config.requestTimeoutMs ?? 10_000, fetchFn: timedChainFetch });
}

/** The account of a port without the operator key: any signature it is asked for fails at once. */
function keylessAccount(): Account {
  const refuse = (): never => {
    throw new Error('this process holds no operator key: chain writes run on the worker');
  };
  return toAccount({ address: zeroAddress, signMessage: refuse, signTransaction: refuse, signTypedData: refuse });
}

export function createChainContext(config: ChainPortConfig): ChainContext {
  const chain = chainOf(config.chainId, config.rpcUrl);
  const transport = transportOf(config);
  const pollingInterval = config.pollingIntervalMs ?? 1000;
  // Native signing: the operator signs every settlement transaction on the worker's event loop.
  const operator = config.operatorKey ? nativeSigningAccount(config.operatorKey) : keylessAccount();
  const publicClient = createPublicClient({ chain, transport, pollingInterval });
  return {
    config,
    chain,
    operator,
    operatorSender: new OperatorSender(publicClient, operator.address),
    publicClient,
    walletClient: createWalletClient({ chain, transport, account: operator, pollingInterval }),
  };
}
