/**
 * The AMM venue behind the `/trade` routes (decisions section 9): quotes from cached pool state
 * exact at its block, and the pool call plus the approvals a wallet still needs to trade.
 */
import { encodeFunctionData, getAddress, isAddress, type Address, type PublicClient } from 'viem';
import { chainCall } from '../chain/chain-errors';
import { ammPoolAbi, collateralAbi, conditionalTokensAbi } from '../chain/generated';
import type { MarketRecord } from '../db/models';
import { AppError } from '../errors';
import { InvalidDecimalError, parseUnitsStrict } from '../money';
import { quoteAmm } from './amm-quote';
import { createPoolStateReader, readPoolState, type PoolState, type PoolStateReader } from './pool-state';
import type { AmmVenue, MarketLike } from '../trade/amm-venue-port';

export type { AmmVenue, MarketLike };

export interface AmmVenueDeps {
  /** The public client of a chain this service serves, else undefined. */
  clientFor(chainId: number): PublicClient | undefined;
  /** Pool state per chain; by default one cached reader per chain (pool-state.ts). */
  readerFor?(chainId: number): PoolStateReader | undefined;
}

/** More than this many whole units in one trade is not a real order. */
const MAX_WHOLE_UNITS = 10n ** 12n;
export const MAX_SLIPPAGE_BPS = 5000;

function parseAmount(amount: unknown, decimals: number): bigint {
  if (typeof amount !== 'string') throw new AppError('VALIDATION_ERROR', 'amount must be a decimal string');
  let wei: bigint;
  try {
    wei = parseUnitsStrict(amount, decimals);
  } catch (error) {
    if (error instanceof InvalidDecimalError) throw new AppError('VALIDATION_ERROR', `amount ${error.message.replace(/^Invalid decimal "[^"]*": /, '')}`);
    throw error;
  }
  if (wei === 0n) throw new AppError('VALIDATION_ERROR', 'amount must be greater than zero');
  if (wei > MAX_WHOLE_UNITS * 10n ** BigInt(decimals)) throw new AppError('VALIDATION_ERROR', `amount must be at most ${MAX_WHOLE_UNITS}`);
  return wei;
}

function checkRequest(request: { outcome: unknown; side: unknown }): void {
  if (request.outcome !== 0 && request.outcome !== 1) throw new AppError('VALIDATION_ERROR', 'outcome must be 0 or 1');
  if (request.side !== 'BUY' && request.side !== 'SELL') throw new AppError('VALIDATION_ERROR', 'side must be BUY or SELL');
}

export function createAmmVenue(deps: AmmVenueDeps): AmmVenue {
  const readers = new Map<number, PoolStateReader>();
  const clientOf = (market: MarketLike): PublicClient => {
    const client = deps.clientFor(market.chain_id);
    if (!client) throw new AppError('NOT_FOUND', `chain ${market.chain_id} is not served here`);
    return client;
  };
  const readerOf = (market: MarketLike): PoolStateReader => {
    const given = deps.readerFor?.(market.chain_id);
    if (given) return given;
    let reader = readers.get(market.chain_id);
    if (!reader) readers.set(market.chain_id, (reader = createPoolStateReader(clientOf(market))));
    return reader;
  };
  const poolOf = (market: MarketLike): Address => {
    if (market.kind !== 'AMM' || !market.amm?.pool_address) {
      throw new AppError('MARKET_NOT_ACTIVE', 'Market is not an AMM market with a pool');
    }
    if (market.status !== 'OPEN') throw new AppError('MARKET_NOT_ACTIVE', `Market is ${market.status}`);
    return getAddress(market.amm.pool_address);
  };
  // A trade starts from the chain head, not the quotes' cache: its min-out or max-in must hold
  // against the price the wallet's transaction will meet, and a block mined in the cache's head
  // window would have made it revert.
  const tradableState = async (market: MarketLike, pool: Address, fresh: boolean): Promise<PoolState> => {
    let state = fresh ? await readPoolState(clientOf(market), pool) : await readerOf(market).read(pool);
    // An OPEN market's pool is funded: an empty one is the cache's head from before the funding
    // block (it lags the chain by up to its head window), so read the head once before refusing.
    if (state.totalShares === 0n && !fresh) state = await readPoolState(clientOf(market), pool);
    if (state.closed || state.resolved) throw new AppError('MARKET_NOT_ACTIVE', 'The pool is closed');
    if (state.paused) throw new AppError('MARKET_NOT_ACTIVE', 'The pool is paused');
    if (state.totalShares === 0n) throw new AppError('MARKET_NOT_ACTIVE', 'The pool is not funded yet');
    return state;
  };
  const quoteOf = async (market: MarketLike, request: { outcome: 0 | 1; side: 'BUY' | 'SELL'; amount: string }, fresh = false) => {
    checkRequest(request);
    const pool = poolOf(market);
    const decimals = market.tokens[0]?.decimals ?? 18;
    const amount = parseAmount(request.amount, decimals);
    const state = await tradableState(market, pool, fresh);
    const quote = quoteAmm(state, {
      chainId: market.chain_id, conditionId: market.condition_id, outcome: request.outcome, side: request.side, amount, decimals,
    });
    return { pool, amount, quote };
  };

  return {
    async quote(market, request) {
      return (await quoteOf(market, request)).quote.body;
    },

    async trade(market, request) {
      if (typeof request.wallet !== 'string' || !isAddress(request.wallet, { strict: false })) {
        throw new AppError('VALIDATION_ERROR', 'wallet must be a 0x-prefixed 20-byte address');
      }
      const slippage = request.slippage_bps;
      if (!Number.isInteger(slippage) || slippage < 0 || slippage > MAX_SLIPPAGE_BPS) {
        throw new AppError('VALIDATION_ERROR', `slippage_bps must be an integer from 0 to ${MAX_SLIPPAGE_BPS}`);
      }
      const wallet = getAddress(request.wallet);
      const { pool, amount, quote } = await quoteOf(market, request, true);
      const outcome = BigInt(request.outcome);
      const data = request.side === 'BUY'
        ? encodeFunctionData({ abi: ammPoolAbi, functionName: 'buy', args: [amount, outcome, (quote.shares * BigInt(10_000 - slippage)) / 10_000n] })
        : encodeFunctionData({ abi: ammPoolAbi, functionName: 'sell', args: [quote.collateral, outcome, (amount * BigInt(10_000 + slippage)) / 10_000n] });
      const approvals = await approvalsNeeded(clientOf(market), market, wallet, pool, request.side, amount);
      return {
        kind: 'AMM',
        quote: quote.body,
        tx: { chain_id: market.chain_id, to: pool, data, value: '0' },
        approvals,
      };
    },
  };
}

/** BUY needs a collateral allowance of `amount` to the pool; SELL needs the pool approved for the outcome tokens. */
async function approvalsNeeded(
  client: PublicClient, market: MarketLike, wallet: Address, pool: Address, side: 'BUY' | 'SELL', amount: bigint,
): Promise<{ to: Address; data: `0x${string}` }[]> {
  if (side === 'BUY') {
    const collateral = getAddress(market.collateral_token);
    const allowance = await chainCall('allowance', () =>
      client.readContract({ address: collateral, abi: collateralAbi, functionName: 'allowance', args: [wallet, pool] }));
    if (allowance >= amount) return [];
    return [{ to: collateral, data: encodeFunctionData({ abi: collateralAbi, functionName: 'approve', args: [pool, amount] }) }];
  }
  const tokens = getAddress(market.conditional_tokens_address);
  const approved = await chainCall('isApprovedForAll', () =>
    client.readContract({ address: tokens, abi: conditionalTokensAbi, functionName: 'isApprovedForAll', args: [wallet, pool] }));
  if (approved) return [];
  return [{ to: tokens, data: encodeFunctionData({ abi: conditionalTokensAbi, functionName: 'setApprovalForAll', args: [pool, true] }) }];
}
