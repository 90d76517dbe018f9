/**
 * Which of one wallet's open orders the chain has voided (decisions section 10): pure, so the
 * chain watcher's activity reads the chain and the store and this decides. Newest first: a
 * shortfall cancels the newest orders of the asset until the older ones are covered.
 */
import { reserveOf } from '../src/engine/amounts';
import type { StatusReason } from '../src/ports/status-reasons';

export type VoidReason = Extract<StatusReason, 'ONCHAIN_CANCEL' | 'NONCE_BUMPED' | 'BALANCE_CHANGED'>;

export interface OpenOrder {
  order_hash: string;
  market_key: string;
  side: 'BUY' | 'SELL';
  token_id: string;
  price_ticks: number;
  fee_rate_bps: number;
  remaining_units: string;
  nonce: string;
  created_at: Date;
}

export interface WalletBacking {
  /** min(collateral balance, allowance to the exchange). */
  collateral: bigint;
  /** Per outcome token id read: its balance, 0 without the exchange's approval. */
  tokens: Record<string, bigint>;
  /** The maker's nonce on the exchange, when it was read (a nonce event was seen). */
  nonce?: bigint;
  /** Whether the wallet's funds were read (a funds event was seen). */
  fundsRead: boolean;
}

export interface VoidedOrder {
  order_hash: string;
  market_key: string;
  reason: VoidReason;
}

/** The asset an order draws on: collateral (BUY) or its outcome token (SELL). */
const assetOf = (o: OpenOrder): string => (o.side === 'BUY' ? 'collateral' : `token:${o.token_id}`);

/**
 * What an open order still reserves: its remaining size's price plus the most fee (BUY), or its
 * remaining outcome tokens (SELL). Unsettled fills are left out on purpose: the chain read may
 * already show them paid, and counting them again would cancel an honest wallet's orders.
 */
export function reservedByRemaining(o: OpenOrder): bigint {
  return reserveOf(o.side, o.price_ticks, BigInt(o.remaining_units), o.fee_rate_bps);
}

export function voidedOrders(orders: readonly OpenOrder[], backing: WalletBacking, cancelledOnChain: ReadonlySet<string>): VoidedOrder[] {
  const voided: VoidedOrder[] = [];
  const standing: OpenOrder[] = [];
  for (const o of orders) {
    if (cancelledOnChain.has(o.order_hash)) voided.push({ order_hash: o.order_hash, market_key: o.market_key, reason: 'ONCHAIN_CANCEL' });
    else if (backing.nonce !== undefined && BigInt(o.nonce) < backing.nonce) voided.push({ order_hash: o.order_hash, market_key: o.market_key, reason: 'NONCE_BUMPED' });
    else standing.push(o);
  }
  if (!backing.fundsRead) return voided;
  const byAsset = new Map<string, OpenOrder[]>();
  for (const o of standing) {
    const asset = assetOf(o);
    const cover = asset === 'collateral' ? backing.collateral : backing.tokens[o.token_id];
    // A SELL of a token not read (placed after the read) waits for the next check.
    if (cover === undefined) continue;
    byAsset.set(asset, [...(byAsset.get(asset) ?? []), o]);
  }
  for (const [asset, list] of byAsset) {
    const cover = asset === 'collateral' ? backing.collateral : backing.tokens[list[0]!.token_id]!;
    let reserved = list.reduce((sum, o) => sum + reservedByRemaining(o), 0n);
    for (const o of [...list].sort(newestFirst)) {
      if (reserved <= cover) break;
      reserved -= reservedByRemaining(o);
      voided.push({ order_hash: o.order_hash, market_key: o.market_key, reason: 'BALANCE_CHANGED' });
    }
  }
  return voided;
}

/** Newest first; orders of one request (same time) by hash, so every check picks the same ones. */
function newestFirst(a: OpenOrder, b: OpenOrder): number {
  const byTime = b.created_at.getTime() - a.created_at.getTime();
  if (byTime !== 0) return byTime;
  return a.order_hash < b.order_hash ? 1 : a.order_hash > b.order_hash ? -1 : 0;
}
