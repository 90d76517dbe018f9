/**
 * A fresh embedded chain with one prepared condition, a pool over it funded by the operator, and
 * trader wallets holding collateral, approved for the pool (collateral and outcome tokens).
 */
import { createWalletClient, http, maxUint256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createChainPort, questionIdOf, startLocalChain, type ChainPort, type DevAccount, type LocalChain, type PreparedCondition } from '../../src/chain';
import { ammPoolAbi, collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { deployPool, fundPool } from '../../src/amm/pool-operations';

export const E18 = 10n ** 18n;

export interface PoolFixture {
  local: LocalChain;
  port: ChainPort;
  condition: PreparedCondition;
  pool: Address;
  feeBps: number;
  traders: DevAccount[];
  wallet(trader: DevAccount): ReturnType<typeof walletFor>;
  /** Sends a transaction and waits; throws when it reverted. */
  send(trader: DevAccount, request: { address: Address; abi: readonly unknown[]; functionName: string; args?: readonly unknown[] }): Promise<Hex>;
  balances(address: Address): Promise<{ collateral: bigint; no: bigint; yes: bigint }>;
  state(): Promise<{ balances: [bigint, bigint]; collectedFees: bigint; totalShares: bigint }>;
  stop(): Promise<void>;
}

function walletFor(local: LocalChain, port: ChainPort, key: Hex) {
  return createWalletClient({ chain: port.context.chain, transport: http(local.rpcUrl), account: privateKeyToAccount(key) });
}

export async function startPoolFixture(options: { feeBps?: number; liquidity?: bigint; traderFunds?: bigint } = {}): Promise<PoolFixture> {
  const feeBps = options.feeBps ?? 200;
  const local = await startLocalChain({ port: 0, blockIntervalMs: 0 });
  const port = createChainPort({
    rpcUrl: local.rpcUrl, chainId: local.chainId, operatorKey: local.operatorKey, addresses: local.addresses,
    confirmations: 0, pollingIntervalMs: 20,
  });
  const ctx = port.context;
  const condition = await port.prepareCondition(questionIdOf(`pool fixture ${Math.random()}`));
  const pool = await deployPool(ctx, condition.conditionId, feeBps);
  await fundPool(ctx, pool, options.liquidity ?? 1000n * E18, { mint: true });
  const traders = local.accounts.slice(1, 5);
  const { collateral, conditionalTokens } = local.addresses;

  const send: PoolFixture['send'] = async (trader, request) => {
    const hash = await walletFor(local, port, trader.privateKey).writeContract(request as never);
    const receipt = await port.waitForReceipt(hash, 0);
    if (receipt.status !== 'success') throw new Error(`${request.functionName} reverted`);
    return hash;
  };
  for (const trader of traders) {
    await port.fundWallet(trader.address, options.traderFunds ?? 10_000n * E18);
    await send(trader, { address: collateral, abi: collateralAbi, functionName: 'approve', args: [pool, maxUint256] });
    await send(trader, { address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'setApprovalForAll', args: [pool, true] });
  }
  const read = ctx.publicClient;
  const token = (address: Address, id: bigint) =>
    read.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [address, id] });
  return {
    local, port, condition, pool, feeBps, traders, send,
    wallet: (trader) => walletFor(local, port, trader.privateKey),
    async balances(address) {
      const [c, no, yes] = await Promise.all([
        read.readContract({ address: collateral, abi: collateralAbi, functionName: 'balanceOf', args: [address] }),
        token(address, condition.noTokenId), token(address, condition.yesTokenId),
      ]);
      return { collateral: c, no, yes };
    },
    async state() {
      const [b0, b1, , shares, fees] = await read.readContract({ address: pool, abi: ammPoolAbi, functionName: 'poolState' });
      return { balances: [b0, b1], collectedFees: fees, totalShares: shares };
    },
    stop: () => local.stop(),
  };
}
