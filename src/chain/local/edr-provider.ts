/**
 * An in-process EVM from Hardhat's EDR (@nomicfoundation/edr 0.12.1, the last release whose
 * engines allow Node 20). EDR's raw API is one call: `handleRequest(jsonString)`; this wraps it
 * into a JSON-RPC request -> response function.
 */
import * as edr from '@nomicfoundation/edr';
import type { DevAccount } from './dev-accounts';

export interface JsonRpcRequest {
  jsonrpc?: string;
  id?: number | string | null;
  method: string;
  params?: unknown[];
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface EdrChain {
  request(request: JsonRpcRequest): Promise<JsonRpcResponse>;
}

export interface EdrChainOptions {
  chainId: number;
  accounts: DevAccount[];
  nativeBalance: bigint;
  /** Also mine an (empty) block every so often, so confirmation counts advance while idle. */
  blockIntervalMs?: number;
  /** Seconds since the epoch for the genesis block; default now. Replaying a journal reuses it. */
  genesisBlockTime?: number;
}

// EdrContext must be created once per process.
let context: Promise<edr.EdrContext> | undefined;

function edrContext(): Promise<edr.EdrContext> {
  context ??= (async () => {
    const ctx = new edr.EdrContext();
    await ctx.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory());
    return ctx;
  })();
  return context;
}

const BLOCK_GAS_LIMIT = 60_000_000n;

export async function createEdrChain(options: EdrChainOptions): Promise<EdrChain> {
  // Prague: the newest fork without Osaka's 2^24 per-transaction gas cap; the contracts are
  // compiled for Cancun, which BSC runs, and Prague executes them identically.
  const hardfork = edr.l1HardforkToString(edr.SpecId.Prague);
  const genesisState = edr.l1GenesisState(edr.SpecId.Prague);
  for (const account of options.accounts) {
    genesisState.push({ address: Buffer.from(account.address.slice(2), 'hex'), balance: options.nativeBalance });
  }
  const provider = await (await edrContext()).createProvider(
    edr.L1_CHAIN_TYPE,
    {
      allowBlocksWithSameTimestamp: false,
      allowUnlimitedContractSize: false,
      // A reverting eth_call answers an error, as real nodes do (false would answer the revert data as a result).
      bailOnCallFailure: true,
      bailOnTransactionFailure: false,
      chainId: BigInt(options.chainId),
      coinbase: Buffer.alloc(20),
      defaultTransactionGasLimit: 16_000_000n,
      genesisState,
      hardfork,
      initialBaseFeePerGas: 1_000_000_000n,
      minGasPrice: 0n,
      mining: {
        autoMine: true,
        blockGasLimit: BLOCK_GAS_LIMIT,
        interval: options.blockIntervalMs ? BigInt(options.blockIntervalMs) : undefined,
        memPool: { order: edr.MineOrdering.Priority },
      },
      network: {
        genesisBlockGasLimit: BLOCK_GAS_LIMIT,
        genesisBlockTime: options.genesisBlockTime === undefined ? undefined : BigInt(options.genesisBlockTime),
      },
      networkId: BigInt(options.chainId),
      observability: {},
      ownedAccounts: options.accounts.map((a) => a.privateKey),
      precompileOverrides: [],
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => undefined },
    { subscriptionCallback: () => undefined },
    new edr.ContractDecoder(),
  );

  return {
    async request(request) {
      const id = request.id ?? null;
      const response = await provider.handleRequest(
        JSON.stringify({ jsonrpc: '2.0', id, method: request.method, params: request.params ?? [] }),
      );
      // EDR answers `{result}` or `{error}`, as a string or an object, without jsonrpc/id.
      const data = (typeof response.data === 'string' ? JSON.parse(response.data) : response.data) as Partial<JsonRpcResponse>;
      return { ...data, jsonrpc: '2.0', id };
    },
  };
}
