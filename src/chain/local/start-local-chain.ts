/**
 * The embedded default chain (decisions section 8): EDR in process, chain id 56, a JSON-RPC HTTP
 * endpoint, Hardhat's dev accounts funded, and the three contracts deployed by dev account 0
 * (the operator). The deployment is written to `<dataDir>/chain/deployment.json`.
 *
 * Persistence: EDR keeps state in memory only. With a `dataDir`, every successful state-changing
 * request is appended to `<dataDir>/chain/journal.ndjson` before it is answered, and the next
 * start replays that journal (deployment included) before the HTTP endpoint opens, so the chain
 * comes back block for block. Without a `dataDir` every start is a fresh chain.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Hex } from 'viem';
import type { ChainAddresses } from '../chain-config';
import { deployContracts } from '../deploy-contracts';
import { ChainJournalError, JOURNAL_VERSION, journalPath, JournalWriter, readJournal, type ReadJournal } from './chain-journal';
import { devAccounts, DEV_NATIVE_BALANCE, type DevAccount } from './dev-accounts';
import { DurableChain } from './durable-chain';
import { createEdrChain } from './edr-provider';
import { startRpcServer } from './rpc-http-server';

export interface LocalChainOptions {
  port: number;
  host?: string;
  dataDir?: string;
  chainId?: number;
  /** Mine an empty block this often so confirmations advance while idle; default 1000, 0 = off. */
  blockIntervalMs?: number;
  /** Journal state changes to `<dataDir>/chain/journal.ndjson` and replay it on start; default true with a dataDir. */
  persist?: boolean;
  /** Progress lines (journal replayed, journal set aside). */
  log?: (line: string) => void;
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
  /** The write-ahead journal, when persistent. */
  journalFile?: string;
  /** Journal entries replayed at this start (0 on a fresh chain). */
  replayedEntries: number;
  stop(): Promise<void>;
}

/** Reads the journal; one whose first start died before its deployment was recorded is set aside. */
async function existingJournal(file: string, log: (line: string) => void): Promise<ReadJournal | undefined> {
  const read = await readJournal(file);
  if (read?.truncatedTail) log(`chain journal ${file}: cut off a torn last line (a request that was never answered)`);
  if (!read || read.entries.some(({ entry }) => entry.k === 'deployment')) {
    if (!read) await fs.rm(file, { force: true }); // empty file
    return read;
  }
  const aside = `${file}.incomplete-${Date.now()}`;
  await fs.rename(file, aside);
  log(`chain journal ${file} ended before the contracts were deployed; moved it to ${aside} and starting a fresh chain`);
  return undefined;
}

export async function startLocalChain(options: LocalChainOptions): Promise<LocalChain> {
  const chainId = options.chainId ?? 56;
  const accounts = devAccounts();
  const operator = accounts[0];
  const log = options.log ?? (() => undefined);
  const file = options.dataDir && options.persist !== false ? journalPath(options.dataDir) : undefined;
  const journal = file ? await existingJournal(file, log) : undefined;
  if (file && journal && journal.header.chainId !== chainId) {
    throw new ChainJournalError(file, 1, `the journal is of chain id ${journal.header.chainId}, not ${chainId}`);
  }
  const genesisBlockTime = journal?.header.genesisBlockTime ?? Math.floor(Date.now() / 1000);
  const edrChain = await createEdrChain({ chainId, accounts, nativeBalance: DEV_NATIVE_BALANCE, genesisBlockTime });
  const chain = new DurableChain(edrChain);

  // Replay before the endpoint exists: nobody sees a half-restored chain.
  let recorded: { addresses: ChainAddresses; blockNumber: number } | undefined;
  let replayedEntries = 0;
  if (file && journal) {
    const started = Date.now();
    const result = await chain.replay(journal, file);
    recorded = result.deployment;
    replayedEntries = result.replayed;
    chain.attachJournal(await JournalWriter.open(file));
    log(`chain journal ${file}: replayed ${replayedEntries} entries in ${Date.now() - started} ms`);
  } else if (file) {
    const genesis = (await edrChain.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })).result as { hash: string };
    chain.attachJournal(await JournalWriter.create(file, {
      k: 'header', v: JOURNAL_VERSION, chainId, genesisBlockTime, genesisHash: genesis.hash, createdAt: new Date().toISOString(),
    }));
  }

  let server: Awaited<ReturnType<typeof startRpcServer>> | undefined;
  try {
    chain.setIntervalMining(options.blockIntervalMs ?? 1000);
    server = await startRpcServer({ host: options.host ?? '127.0.0.1', port: options.port, handle: (r) => chain.request(r) });
    if (!recorded) {
      const deployed = await deployContracts({ rpcUrl: server.url, chainId, deployerKey: operator.privateKey, openMint: true });
      recorded = {
        addresses: { collateral: deployed.collateral, conditionalTokens: deployed.conditionalTokens, exchange: deployed.exchange },
        blockNumber: Number(deployed.blockNumber),
      };
      await chain.recordDeployment(recorded);
    }
    const { addresses } = recorded;
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
        deployedAtBlock: recorded.blockNumber.toString(),
        startedAt: new Date().toISOString(),
      };
      await fs.writeFile(deploymentFile, `${JSON.stringify(deployment, null, 2)}\n`);
    }
    const running = server;
    return {
      rpcUrl: running.url, chainId, addresses, operatorKey: operator.privateKey, accounts, deploymentFile,
      journalFile: file, replayedEntries,
      stop: async () => {
        await running.close();
        await chain.close();
      },
    };
  } catch (error) {
    await server?.close();
    await chain.close();
    throw error;
  }
}
