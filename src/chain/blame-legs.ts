/**
 * Which orders of a refused match caused the refusal. The exchange reverts a match whole, with one
 * reason ("collateral transfer", "invalid signature", out of gas) that does not say whose leg it
 * was; so after a refusal each order is checked on its own, by views at the block that refused it:
 * what the exchange's `_validate` checks (expiry, nonce, cancel), what the match takes from its
 * wallet (balance and allowance or approval, for all of the wallet's orders in the match), and the
 * calls into a contract wallet (EIP-1271 `isValidSignature`, the ERC-1155 receiver hook) under the
 * gas caps the contracts give them. Run on the failure path only, never before a send.
 */
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { AppError } from '../errors';
import { chainCall, toChainError } from './chain-errors';
import type { ChainContext } from './chain-context';
import { collateralAbi, conditionalTokensAbi, exchangeAbi } from './generated';
import type { SignedOrder } from '../signing';
import type { OrderFill } from './submit-match';

/**
 * Why an order failed its match. BALANCE_CHANGED: its wallet no longer holds or no longer lets the
 * exchange take what the leg gives; NONCE_BUMPED / ONCHAIN_CANCEL / EXPIRED: the exchange no longer
 * takes the order; SIGNATURE_REFUSED: its contract wallet no longer accepts the signature;
 * TOKENS_REFUSED: its contract wallet refuses the outcome tokens it bought; GAS_BURNED: its contract
 * wallet ran out of the gas the exchange or the token gives a wallet call.
 */
export type LegFailure = 'BALANCE_CHANGED' | 'NONCE_BUMPED' | 'ONCHAIN_CANCEL' | 'EXPIRED' | 'SIGNATURE_REFUSED' | 'TOKENS_REFUSED' | 'GAS_BURNED';

/** One order of a match as settlement sent it: its hash, the signed order, and what it gives and gets in all. */
export interface MatchLeg {
  hash: Hex;
  order: SignedOrder;
  fill: OrderFill;
}

export interface LegBlame {
  hash: Hex;
  reason: LegFailure;
}

/** contracts/Exchange.sol WALLET_CALL_GAS and contracts/ConditionalTokens.sol RECEIVER_GAS (a test reads both). */
export const WALLET_CALL_GAS = 60_000n;
export const RECEIVER_GAS = 60_000n;

const ERC1271_MAGIC = '0x1626ba7e';
const ERC1155_RECEIVED = '0xf23a6e61';
const walletAbi = [
  {
    type: 'function', name: 'isValidSignature', stateMutability: 'view',
    inputs: [{ name: 'digest', type: 'bytes32' }, { name: 'signature', type: 'bytes' }], outputs: [{ name: '', type: 'bytes4' }],
  },
  {
    type: 'function', name: 'onERC1155Received', stateMutability: 'nonpayable',
    inputs: [{ name: 'operator', type: 'address' }, { name: 'from', type: 'address' }, { name: 'id', type: 'uint256' }, { name: 'value', type: 'uint256' }, { name: 'data', type: 'bytes' }],
    outputs: [{ name: '', type: 'bytes4' }],
  },
] as const;

/**
 * The orders of `legs` (one entry per order, its fills summed) that the chain now refuses, each with
 * why; empty when none can be blamed. `blockNumber`: the block that refused the match (else the latest).
 */
export function blameLegs(ctx: ChainContext, legs: MatchLeg[], blockNumber?: bigint): Promise<LegBlame[]> {
  return chainCall('blameLegs', async () => {
    const at = blockNumber === undefined ? {} : { blockNumber };
    const block = await ctx.publicClient.getBlock(blockNumber === undefined ? {} : { blockNumber });
    const needs = walletNeeds(legs);
    const found = await Promise.all(legs.map(async (leg): Promise<LegBlame | null> => {
      const reason = (await refusedByExchange(ctx, leg, block.timestamp, at))
        ?? (needs.get(assetKey(leg)) ? await shortOf(ctx, leg, needs.get(assetKey(leg))!, at) : null)
        ?? (await refusedByWallet(ctx, leg, at));
      return reason ? { hash: leg.hash, reason } : null;
    }));
    return found.filter((b): b is LegBlame => b !== null);
  });
}

type At = { blockNumber?: bigint };

/** What the exchange's own checks of the order say at that block: expired, nonce moved on, cancelled. */
async function refusedByExchange(ctx: ChainContext, leg: MatchLeg, blockTime: bigint, at: At): Promise<LegFailure | null> {
  const exchange = ctx.config.addresses.exchange;
  const { order } = leg;
  if (order.expiration !== 0n && blockTime >= order.expiration) return 'EXPIRED';
  const [nonce, cancelled] = await Promise.all([
    ctx.publicClient.readContract({ ...at, address: exchange, abi: exchangeAbi, functionName: 'nonces', args: [order.maker] }),
    ctx.publicClient.readContract({ ...at, address: exchange, abi: exchangeAbi, functionName: 'cancelled', args: [leg.hash] }),
  ]);
  if (cancelled) return 'ONCHAIN_CANCEL';
  if (nonce !== order.nonce) return 'NONCE_BUMPED';
  return null;
}

/** Per wallet and asset (collateral or one token), what all of the wallet's orders in the match give. */
function walletNeeds(legs: MatchLeg[]): Map<string, bigint> {
  const needs = new Map<string, bigint>();
  for (const leg of legs) needs.set(assetKey(leg), (needs.get(assetKey(leg)) ?? 0n) + spendOf(leg));
  return needs;
}

const assetKey = ({ order }: MatchLeg) => `${order.maker.toLowerCase()}:${order.side === 0 ? 'c' : order.tokenId.toString()}`;

/** What the leg takes from its wallet: a BUY's collateral and the most fee it can owe, a SELL's tokens. */
function spendOf({ order, fill }: MatchLeg): bigint {
  if (order.side !== 0) return fill.making;
  const base = fill.making < fill.taking - fill.making ? fill.making : fill.taking - fill.making;
  return fill.making + (order.feeRateBps * base) / 10_000n;
}

/** BALANCE_CHANGED when the wallet holds, or lets the exchange take, less than its orders in the match give. */
async function shortOf(ctx: ChainContext, leg: MatchLeg, need: bigint, at: At): Promise<LegFailure | null> {
  const { collateral, conditionalTokens, exchange } = ctx.config.addresses;
  const wallet = leg.order.maker;
  if (leg.order.side === 0) {
    const [balance, allowance] = await Promise.all([
      ctx.publicClient.readContract({ ...at, address: collateral, abi: collateralAbi, functionName: 'balanceOf', args: [wallet] }),
      ctx.publicClient.readContract({ ...at, address: collateral, abi: collateralAbi, functionName: 'allowance', args: [wallet, exchange] }),
    ]);
    return balance < need || allowance < need ? 'BALANCE_CHANGED' : null;
  }
  const [balance, approved] = await Promise.all([
    ctx.publicClient.readContract({ ...at, address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [wallet, leg.order.tokenId] }),
    ctx.publicClient.readContract({ ...at, address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'isApprovedForAll', args: [wallet, exchange] }),
  ]);
  return balance < need || !approved ? 'BALANCE_CHANGED' : null;
}

/**
 * A contract wallet's calls as the exchange and the token make them, under the same gas caps: its
 * signature check (a contract signer), and its receiver hook when the order buys tokens.
 */
async function refusedByWallet(ctx: ChainContext, leg: MatchLeg, at: At): Promise<LegFailure | null> {
  const wallet = leg.order.maker;
  const code = await ctx.publicClient.getCode({ ...at, address: wallet });
  if (!code || code === '0x') return null;
  const { exchange, conditionalTokens } = ctx.config.addresses;
  if (leg.order.signatureType === 1) {
    const data = encodeFunctionData({ abi: walletAbi, functionName: 'isValidSignature', args: [leg.hash, leg.order.signature] });
    const answer = await walletCall(ctx, { from: exchange, to: wallet, data, gas: WALLET_CALL_GAS, at });
    if (answer !== ERC1271_MAGIC) return answer === 'gas' ? 'GAS_BURNED' : 'SIGNATURE_REFUSED';
  }
  if (leg.order.side === 0) {
    const data = encodeFunctionData({ abi: walletAbi, functionName: 'onERC1155Received', args: [exchange, exchange, leg.order.tokenId, leg.fill.taking, '0x'] });
    const answer = await walletCall(ctx, { from: conditionalTokens, to: wallet, data, gas: RECEIVER_GAS, at });
    if (answer !== ERC1155_RECEIVED) return answer === 'gas' ? 'GAS_BURNED' : 'TOKENS_REFUSED';
  }
  return null;
}

/**
 * The first four bytes a wallet call answers, 'gas' when it ran out of its cap, 'refused' when it
 * reverted. An unreachable node is an error (nothing is blamed on a wallet for it).
 */
async function walletCall(ctx: ChainContext, q: { from: Address; to: Address; data: Hex; gas: bigint; at: At }): Promise<string> {
  try {
    const { data } = await ctx.publicClient.call({ account: q.from, to: q.to, data: q.data, gas: q.gas, ...q.at });
    return (data ?? '0x').slice(0, 10).toLowerCase();
  } catch (error) {
    const mapped = toChainError(error, 'wallet call');
    if (mapped instanceof AppError) throw mapped;
    return /out of gas|gas required exceeds/i.test(`${(error as Error).message}`) ? 'gas' : 'refused';
  }
}

/** The orders of a match submission, each once with its fills summed (a maker may have several legs). */
export function matchLegsOf(
  match: { taker: SignedOrder; makers: SignedOrder[]; takerFill: OrderFill; makerFills: OrderFill[] }, takerHash: Hex, makerHashes: Hex[],
): MatchLeg[] {
  const legs = new Map<string, MatchLeg>([[takerHash.toLowerCase(), { hash: takerHash, order: match.taker, fill: match.takerFill }]]);
  match.makers.forEach((order, i) => {
    const key = makerHashes[i].toLowerCase();
    const fill = match.makerFills[i];
    const seen = legs.get(key);
    if (seen) seen.fill = { making: seen.fill.making + fill.making, taking: seen.fill.taking + fill.taking };
    else legs.set(key, { hash: makerHashes[i], order, fill });
  });
  return [...legs.values()];
}
