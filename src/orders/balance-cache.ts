import type { Address } from 'viem';
import type { OrderChainPort } from './chain-port';

/** What a wallet can commit to orders of one asset, from the chain (before reservations). */
export type AssetRef =
  | { kind: 'collateral'; chainId: number; collateral: Address; exchange: Address }
  | { kind: 'token'; chainId: number; conditionalTokens: Address; exchange: Address; tokenId: bigint };

/** Where a market's orders of `side` draw from: its collateral (BUY) or the outcome token `tokenId` (SELL). */
export function balanceAssetOf(
  market: { chain_id: number; collateral_token: string; ctf_exchange_address: string; conditional_tokens_address: string },
  side: 'BUY' | 'SELL',
  tokenId: bigint,
): AssetRef {
  const exchange = market.ctf_exchange_address as Address;
  return side === 'BUY'
    ? { kind: 'collateral', chainId: market.chain_id, collateral: market.collateral_token as Address, exchange }
    : { kind: 'token', chainId: market.chain_id, conditionalTokens: market.conditional_tokens_address as Address, exchange, tokenId };
}

export const DEFAULT_BALANCE_TTL_MS = 2_000;

interface Entry<T> {
  value: Promise<T>;
  /** When the read started: what it says is at most `ttlMs` old while the entry is served. */
  readAt: number;
  expiresAt: number;
  /** Units taken off this read by `spend` since it started (balances only). */
  spent: bigint;
  /** The read that replaces this one when it succeeds, started in the second half of the entry's TTL. */
  refresh?: Entry<T>;
}

/** How long a spent fill's id is remembered, so a fill announced again is not taken off twice. */
const SPENT_FILL_MEMORY_MS = 10 * 60_000;
/** At most this many spent fills are remembered (~10 minutes of fills at 300 a second). */
const MAX_SPENT_FILLS = 200_000;

/**
 * Per-wallet cache of chain reads used at placement (spendable balance, maker nonce), so the hot
 * path makes no chain call while an entry is fresh. Staleness is bounded by `ttlMs` (default 2 s):
 * an entry hit in the second half of its TTL is read again behind the hit, and the new read
 * replaces it when it arrives, so a wallet that keeps trading never waits for the chain.
 * What settlement moves out of a wallet is taken off its cached balance by `spend` (from the
 * `spends` events), so a settlement costs the next request no chain read; `invalidateWallet`
 * drops everything. Concurrent misses for one key share one chain read.
 *
 * A spend is taken off every read of the balance that started before it arrived: a read that
 * already saw the transfer has it taken off twice until the entry expires, which refuses too much
 * for at most the TTL, never too little. Proceeds (a seller's collateral, a buyer's tokens) are
 * not added: they count from the next read.
 */
export class BalanceCache {
  private readonly entries = new Map<string, Entry<unknown>>();
  /** Fill ids already spent, until when they are remembered. */
  private readonly spentFills = new Map<string, number>();

  constructor(
    private readonly chain: OrderChainPort,
    private readonly ttlMs = DEFAULT_BALANCE_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** min(balance, allowance) for collateral; the balance (0 without approval) for an outcome token. */
  async spendable(wallet: Address, asset: AssetRef): Promise<bigint> {
    const entry = this.cached(balanceKeyOf(wallet, asset), async () => {
      if (asset.kind === 'collateral') {
        const { balance, allowance } = await this.chain.collateralFunds({ chainId: asset.chainId, collateral: asset.collateral, exchange: asset.exchange, wallet });
        return balance < allowance ? balance : allowance;
      }
      const { balance, approved } = await this.chain.tokenFunds({
        chainId: asset.chainId, conditionalTokens: asset.conditionalTokens, exchange: asset.exchange, wallet, tokenId: asset.tokenId,
      });
      return approved ? balance : 0n;
    });
    const read = await entry.value;
    // `spent` as it is now: spends that arrived while the read was under way count too.
    return read > entry.spent ? read - entry.spent : 0n;
  }

  /**
   * Takes `units` off the wallet's cached balance of `asset` (a settled fill's transfer out), once
   * per `fillId`. Without a cached balance there is nothing to do: the next read sees the chain.
   */
  spend(wallet: string, asset: AssetRef, units: bigint, fillId: string): void {
    const now = this.clock();
    if ((this.spentFills.get(fillId) ?? 0) > now) return;
    this.forgetSpentFills(now);
    this.spentFills.set(fillId, now + SPENT_FILL_MEMORY_MS);
    const entry = this.entries.get(balanceKeyOf(wallet, asset));
    if (!entry) return;
    // An expired entry too: it is never served again, but the read behind it may still replace it.
    entry.spent += units;
    if (entry.refresh) entry.refresh.spent += units;
  }

  /**
   * Forgets spent fills from the oldest (a Map keeps insertion order, which is expiry order): the
   * expired ones, and past `MAX_SPENT_FILLS` the oldest anyway. A fill forgotten early and
   * announced again is taken off twice, which only refuses too much until the entry expires.
   */
  private forgetSpentFills(now: number): void {
    for (const [id, until] of this.spentFills) {
      if (until > now && this.spentFills.size < MAX_SPENT_FILLS) break;
      this.spentFills.delete(id);
    }
  }

  makerNonce(wallet: Address, chainId: number, exchange: Address): Promise<bigint> {
    const key = `${wallet.toLowerCase()}|${chainId}|n|${exchange.toLowerCase()}`;
    return this.cached(key, () => this.chain.makerNonce({ chainId, exchange, wallet })).value;
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

  /**
   * The entry for `key`: a fresh one as it is; one in the second half of its TTL as it is too,
   * with the read that replaces it started behind it (so the requests of a wallet that trades at
   * least every half TTL never wait for the chain, and what they see is still at most `ttlMs`
   * old); else a new read.
   */
  private cached<T>(key: string, load: () => Promise<T>): Entry<T> {
    const now = this.clock();
    const hit = this.entries.get(key) as Entry<T> | undefined;
    if (hit && hit.expiresAt > now) {
      if (!hit.refresh && now >= hit.readAt + this.ttlMs / 2) this.refresh(key, hit, load, now);
      return hit;
    }
    const entry = this.read(load, now);
    this.entries.set(key, entry);
    // A failed read is not cached: the next request asks the chain again.
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    if (this.entries.size > 50_000) this.evictExpired(now);
    return entry;
  }

  private read<T>(load: () => Promise<T>, now: number): Entry<T> {
    return { value: load(), readAt: now, expiresAt: now + this.ttlMs, spent: 0n };
  }

  /** Replaces `stale` by a new read once that succeeds, unless `stale` was dropped meanwhile. */
  private refresh<T>(key: string, stale: Entry<T>, load: () => Promise<T>, now: number): void {
    const next = this.read(load, now);
    stale.refresh = next;
    next.value.then(
      () => {
        if (this.entries.get(key) === stale) this.entries.set(key, next);
      },
      // A failed refresh leaves the entry served until it expires; the next hit tries again.
      () => {
        if (stale.refresh === next) stale.refresh = undefined;
      },
    );
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

function balanceKeyOf(wallet: string, asset: AssetRef): string {
  return asset.kind === 'collateral'
    ? `${wallet.toLowerCase()}|${asset.chainId}|c|${asset.collateral.toLowerCase()}|${asset.exchange.toLowerCase()}`
    : `${wallet.toLowerCase()}|${asset.chainId}|t|${asset.conditionalTokens.toLowerCase()}|${asset.exchange.toLowerCase()}|${asset.tokenId}`;
}
