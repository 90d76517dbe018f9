/**
 * The operator's pool transactions: deploy, fund, pause, close, remove liquidity. They hold the
 * operator key, so only the worker (activities) and the ops CLI call them, never the API process.
 * Each is safe to repeat: a funding or status already in place is not sent again.
 */
import { getAddress, type Address, type Hex } from 'viem';
import { chainCall } from '../chain/chain-errors';
import type { ChainContext } from '../chain/chain-context';
import { ammPoolAbi, ammPoolBytecode, collateralAbi } from '../chain/generated';

async function confirm(ctx: ChainContext, action: string, write: (nonce: number) => Promise<Hex>): Promise<{ hash: Hex; contractAddress?: Address }> {
  const hash = await chainCall(action, () => ctx.operatorSender.send(write));
  const receipt = await chainCall(action, () => ctx.publicClient.waitForTransactionReceipt({ hash, timeout: 120_000 }));
  if (receipt.status !== 'success') throw new Error(`${action} transaction ${hash} reverted`);
  return { hash, contractAddress: receipt.contractAddress ? getAddress(receipt.contractAddress) : undefined };
}

/** Deploys a pool for `conditionId` with the operator as its only funder; resolves its address. */
export async function deployPool(ctx: ChainContext, conditionId: Hex, feeBps: number): Promise<Address> {
  const { conditionalTokens, collateral } = ctx.config.addresses;
  const { contractAddress } = await confirm(ctx, 'deploy pool', (nonce) => ctx.walletClient.deployContract({
    abi: ammPoolAbi, bytecode: ammPoolBytecode, nonce,
    args: [conditionalTokens, collateral, conditionId, BigInt(feeBps), ctx.operator.address],
  }));
  if (!contractAddress) throw new Error('deploy pool: the receipt names no contract');
  return contractAddress;
}

export async function poolShares(ctx: ChainContext, pool: Address): Promise<bigint> {
  return chainCall('pool totalShares', () => ctx.publicClient.readContract({ address: pool, abi: ammPoolAbi, functionName: 'totalShares' }));
}

/**
 * Adds `amount` collateral of the operator's to the pool. `onlyIfEmpty` makes the initial funding
 * idempotent: a retried activity whose first try funded the pool does nothing.
 * `mint` (local chains only) mints the collateral to the operator first.
 */
export async function fundPool(ctx: ChainContext, pool: Address, amount: bigint, options: { onlyIfEmpty?: boolean; mint?: boolean } = {}): Promise<void> {
  if (options.onlyIfEmpty && (await poolShares(ctx, pool)) > 0n) return;
  const { collateral } = ctx.config.addresses;
  if (options.mint) {
    await confirm(ctx, 'mint pool collateral', (nonce) => ctx.walletClient.writeContract({
      address: collateral, abi: collateralAbi, functionName: 'mint', args: [ctx.operator.address, amount], nonce,
    }));
  }
  await confirm(ctx, 'approve pool', (nonce) => ctx.walletClient.writeContract({
    address: collateral, abi: collateralAbi, functionName: 'approve', args: [pool, amount], nonce,
  }));
  await confirm(ctx, 'fund pool', (nonce) => ctx.walletClient.writeContract({
    address: pool, abi: ammPoolAbi, functionName: 'addFunding', args: [amount], nonce,
  }));
}

export async function setPoolPaused(ctx: ChainContext, pool: Address, paused: boolean): Promise<void> {
  const current = await chainCall('pool paused', () => ctx.publicClient.readContract({ address: pool, abi: ammPoolAbi, functionName: 'paused' }));
  if (current === paused) return;
  await confirm(ctx, paused ? 'pause pool' : 'unpause pool', (nonce) => ctx.walletClient.writeContract({
    address: pool, abi: ammPoolAbi, functionName: 'setPaused', args: [paused], nonce,
  }));
}

export async function closePool(ctx: ChainContext, pool: Address): Promise<void> {
  const closed = await chainCall('pool closed', () => ctx.publicClient.readContract({ address: pool, abi: ammPoolAbi, functionName: 'closed' }));
  if (closed) return;
  await confirm(ctx, 'close pool', (nonce) => ctx.walletClient.writeContract({ address: pool, abi: ammPoolAbi, functionName: 'close', nonce }));
}

/** Burns `shares` (all when omitted): the operator gets their outcome tokens and fees. */
export async function removePoolFunding(ctx: ChainContext, pool: Address, shares?: bigint): Promise<void> {
  const burn = shares ?? await poolShares(ctx, pool);
  if (burn === 0n) return;
  await confirm(ctx, 'remove pool funding', (nonce) => ctx.walletClient.writeContract({
    address: pool, abi: ammPoolAbi, functionName: 'removeFunding', args: [burn], nonce,
  }));
}

