/**
 * The embedded default chain (decisions section 8): EDR in process, chain id 56, a JSON-RPC HTTP
 * endpoint, Hardhat's dev accounts funded, and the three contracts deployed by dev account 0
 * (the operator). The deployment is written to `<dataDir>/chain/deployment.json`.
 *
 * Persistence: EDR keeps state in memory only, so every start is a fresh chain with the
 * contracts redeployed at the same addresses; balances, conditions and orders' on-chain state
 * from a previous run are gone, and the service must prepare its markets' conditions again.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Hex } from 'viem';
import type { ChainAddresses } from '../chain-config';
import { deployContracts } from '../deploy-contracts';
import { devAccounts, DEV_NATIVE_BALANCE, type DevAccount } from './dev-accounts';
import { createEdrChain } from './edr-provider';
import { startRpcServer } from './rpc-http-server';

export interface LocalChainOptions {
  port: number;
  host?: string;
  dataDir?: string;
  chainId?: number;
  /** Mine an empty block this often so confirmations advance while idle; default 1000, 0 = off. */
  blockIntervalMs?: number;
}

export interface LocalDeployment {
  chainId: number;
  rpcUrl: string;
  addresses: ChainAddresses;
  operatorAddress: Hex;
  deployedAtBlock: string;
  startedAt: string;
}

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  addresses: ChainAddresses;
  /** Dev account 0: deployer, exchange admin and operator, oracle, fee recipient. */
  operatorKey: Hex;
  accounts: DevAccount[];
  deploymentFile?: string;
  stop(): Promise<void>;
}

export async function startLocalChain(options: LocalChainOptions): Promise<LocalChain> {
  const chainId = options.chainId ?? 56;
  const accounts = devAccounts();
  const operator = accounts[0];
  const chain = await createEdrChain({
    chainId,
    accounts,
    nativeBalance: DEV_NATIVE_BALANCE,
    blockIntervalMs: options.blockIntervalMs ?? 1000,
  });
  const server = await startRpcServer({ host: options.host ?? '127.0.0.1', port: options.port, handle: (r) => chain.request(r) });
  try {
    const deployed = await deployContracts({ rpcUrl: server.url, chainId, deployerKey: operator.privateKey, openMint: true });
    const addresses: ChainAddresses = {
      collateral: deployed.collateral,
      conditionalTokens: deployed.conditionalTokens,
      exchange: deployed.exchange,
    };
    let deploymentFile: string | undefined;
    if (options.dataDir) {
      const dir = path.join(options.dataDir, 'chain');
      await fs.mkdir(dir, { recursive: true });
      deploymentFile = path.join(dir, 'deployment.json');
      const deployment: LocalDeployment = {
        chainId,
        rpcUrl: server.url,
        addresses,
        operatorAddress: operator.address,
        deployedAtBlock: deployed.blockNumber.toString(),
        startedAt: new Date().toISOString(),
      };
      await fs.writeFile(deploymentFile, `${JSON.stringify(deployment, null, 2)}\n`);
    }
    return { rpcUrl: server.url, chainId, addresses, operatorKey: operator.privateKey, accounts, deploymentFile, stop: () => server.close() };
  } catch (error) {
    await server.close();
    throw error;
  }
}
