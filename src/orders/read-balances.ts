import type { Address } from 'viem';
import type { QuerySchema } from '../http/query';
import type { MarketRecord } from '../db/models/market.model';
import { formatCanonical } from '../money';
import { compileSchema } from '../validation/ajv';
import { balanceAssetOf, type AssetRef } from './balance-cache';
import type { OrderContext } from './context';
import type { OrderStatus } from '../ports/order-record';
import { checkChainId } from './read-orders';
import { collateralAsset, tokenAsset } from './reservations';

export interface BalancesQuery {
  chain_id?: number;
}
export const balancesQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { chain_id: { type: 'integer', minimum: 1 } },
} satisfies QuerySchema;
export const validateBalancesQuery = compileSchema<BalancesQuery>(balancesQuerySchema);

const LIVE: OrderStatus[] = ['OPEN', 'PARTIALLY_FILLED', 'MATCHED'];

/**
 * GET /v1/balances: per asset, what the chain says (balance, allowance or approval), what the
 * wallet's open orders and unsettled matches hold (`reserved`, the reservation store's holds) and
 * `available` = spendable - reserved. `spendable` and `reserved` are the very reads placement
 * decides INSUFFICIENT_BALANCE from (the balance cache and the holds), so an order needing at most
 * `available` is accepted and one needing more is refused.
 */
export async function readBalances(ctx: OrderContext, wallet: string, query: BalancesQuery): Promise<Record<string, unknown>> {
  checkChainId(ctx, query.chain_id);
  const chainId = query.chain_id ?? ctx.chainIds[0];
  const owner = wallet.toLowerCase();
  const markets = await marketsOfWallet(ctx, owner, chainId);
  const any = markets.values().next().value ?? (await ctx.models.markets.findOne({ chain_id: chainId, kind: 'CLOB' }).lean());
  const [collateral, tokens] = await Promise.all([
    any ? collateralBalance(ctx, owner, any) : null,
    Promise.all([...markets.values()].flatMap((m) => m.tokens.map((t) => tokenBalance(ctx, owner, m, t)))),
  ]);
  return { collateral, tokens: tokens.filter((t) => t !== null) };
}

/** Markets of `chainId` where the wallet has an order not yet ended or a fill. */
async function marketsOfWallet(ctx: OrderContext, owner: string, chainId: number): Promise<Map<string, MarketRecord>> {
  const [ordered, filled] = await Promise.all([
    ctx.models.orders.distinct('condition_id', { wallet: owner, chain_id: chainId, status: { $in: LIVE } }),
    ctx.models.fills.distinct('condition_id', { wallet: owner, chain_id: chainId }),
  ]);
  const ids = [...new Set([...ordered, ...filled].map(String))];
  if (ids.length === 0) return new Map();
  const found = await ctx.models.markets.find({ chain_id: chainId, condition_id: { $in: ids } }).lean();
  return new Map(found.sort((a, b) => a.condition_id.localeCompare(b.condition_id)).map((m) => [m.condition_id, m]));
}

async function collateralBalance(ctx: OrderContext, owner: string, market: MarketRecord): Promise<Record<string, unknown>> {
  const ref = balanceAssetOf(market, 'BUY', 0n) as Extract<AssetRef, { kind: 'collateral' }>;
  const decimals = market.tokens[0]?.decimals ?? 18;
  const [funds, spendable, reserved] = await Promise.all([
    ctx.chain.collateralFunds({ chainId: ref.chainId, collateral: ref.collateral, exchange: ref.exchange, wallet: owner as Address }),
    ctx.balances.spendable(owner as Address, ref),
    ctx.reservationStore.held(owner, market.chain_id, collateralAsset(market.collateral_token)),
  ]);
  const amount = (units: bigint) => formatCanonical(units, decimals);
  return {
    token: market.collateral_token,
    balance: amount(funds.balance),
    allowance: amount(funds.allowance),
    reserved: amount(reserved),
    available: amount(spendable > reserved ? spendable - reserved : 0n),
  };
}

async function tokenBalance(ctx: OrderContext, owner: string, market: MarketRecord, token: MarketRecord['tokens'][number]): Promise<Record<string, unknown>> {
  const ref = balanceAssetOf(market, 'SELL', BigInt(token.token_id)) as Extract<AssetRef, { kind: 'token' }>;
  const [funds, spendable, reserved] = await Promise.all([
    ctx.chain.tokenFunds({ chainId: ref.chainId, conditionalTokens: ref.conditionalTokens, exchange: ref.exchange, wallet: owner as Address, tokenId: ref.tokenId }),
    ctx.balances.spendable(owner as Address, ref),
    ctx.reservationStore.held(owner, market.chain_id, tokenAsset(token.token_id)),
  ]);
  const amount = (units: bigint) => formatCanonical(units, token.decimals);
  return {
    token_id: token.token_id,
    condition_id: market.condition_id,
    outcome: token.outcome,
    balance: amount(funds.balance),
    approved: funds.approved,
    reserved: amount(reserved),
    available: amount(spendable > reserved ? spendable - reserved : 0n),
  };
}
