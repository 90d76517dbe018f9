import type { Address } from 'viem';
import type { OrderChainPort } from './chain-port';

/** What a wallet can commit to orders of one asset, from the chain (before reservations). */
export type AssetRef =
  | { kind: 'collateral'; chainId: number; collateral: Address; exchange: Address }
  | { kind: 'token'; chainId: number; conditionalTokens: Address; exchange: Address; tokenId: bigint };

export const DEFAULT_BALANCE_TTL_MS = 2_000;

interface Entry<T> {
  value: Promise<T>;
  expiresAt: number;
}

/**
 * Per-wallet cache of chain reads used at placement (spendable balance, maker nonce), so the hot
 * path makes no chain call while an entry is fresh. Staleness is bounded by `ttlMs` (default 2 s)
 * and cut short by `invalidateWallet`, which the settlement side calls after every transfer it
 * makes for the wallet. Concurrent misses for one key share one chain read.
 */
export class BalanceCache {
  private readonly entries = new Map<string, Entry<unknown>>();

  constructor(
    private readonly chain: OrderChainPort,
    private readonly ttlMs = DEFAULT_BALANCE_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** min(balance, allowance) for collateral; the balance (0 without approval) for an outcome token. */
  spendable(wallet: Address, asset: AssetRef): Promise<bigint> {
    const key = asset.kind === 'collateral'
      ? `${wallet.toLowerCase()}|${asset.chainId}|c|${asset.collateral.toLowerCase()}|${asset.exchange.toLowerCase()}`
      : `${wallet.toLowerCase()}|${asset.chainId}|t|${asset.conditionalTokens.toLowerCase()}|${asset.exchange.toLowerCase()}|${asset.tokenId}`;
    return this.cached(key, async () => {
      if (asset.kind === 'collateral') {
        const { balance, allowance } = await this.chain.collateralFunds({ chainId: asset.chainId, collateral: asset.collateral, exchange: asset.exchange, wallet });
        return balance < allowance ? balance : allowance;
      }
      const { balance, approved } = await this.chain.tokenFunds({
        chainId: asset.chainId, conditionalTokens: asset.conditionalTokens, exchange: asset.exchange, wallet, tokenId: asset.tokenId,
      });
      return approved ? balance : 0n;
    });
  }

  makerNonce(wallet: Address, chainId: number, exchange: Address): Promise<bigint> {
    const key = `${wallet.toLowerCase()}|${chainId}|n|${exchange.toLowerCase()}`;
    return this.cached(key, () => this.chain.makerNonce({ chainId, exchange, wallet }));
  }

  /** Drops every cached read of `wallet` (after a settlement, a nonce bump or an approval seen). */
  invalidateWallet(wallet: string): void {
    const prefix = `${wallet.toLowerCase()}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /**
   * Drops the wallet's cached balances but keeps its maker nonce: what a settlement moves. (A
   * nonce changes only by the maker's own `incrementNonce`; `invalidateWallet` drops it too.)
   */
  invalidateBalances(wallet: string): void {
    const prefix = `${wallet.toLowerCase()}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix) && !key.includes('|n|')) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = this.clock();
    const hit = this.entries.get(key) as Entry<T> | undefined;
    if (hit && hit.expiresAt > now) return hit.value;
    const value = load();
    const entry: Entry<T> = { value, expiresAt: now + this.ttlMs };
    this.entries.set(key, entry);
    // A failed read is not cached: the next request asks the chain again.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    if (this.entries.size > 50_000) this.evictExpired(now);
    return value;
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
