/**
 * The chain watcher's one activity (workflows/chain-watcher.workflow.ts): scans the blocks after
 * the cursor for what can void open orders and says which orders to take off which book. Level
 * triggered: an event only names a wallet or an order to check, the check reads the chain as it is
 * now, so scanning a range again (a retried activity, a reorg) decides the same and applies nothing
 * twice.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Address } from 'viem';
import type { ChainPort } from '../src/chain';
import { getBlockRef, getWatchedEvents, type BlockRef, type WatchedEvent } from '../src/chain/watched-events';
import type { Logger } from '../src/logging/logger';
import { IDS_PER_QUERY, type MatchingCollections } from '../src/matching/collections';
import type { MarketRef } from '../src/matching/market-ids';
import { nextScanStart, type WatchCursor } from './scan-range';
import { voidedOrders, type OpenOrder, type VoidReason, type WalletBacking } from './chain-watcher-cover';

/** What the watcher reads from one chain. */
export interface WatchChain {
  readonly chainId: number;
  blockRef(at: bigint | 'latest'): Promise<BlockRef | null>;
  events(fromBlock: bigint, toBlock: bigint): Promise<WatchedEvent[]>;
  /** min(collateral balance, allowance) and, per token id, its balance (0 without approval), at one block. */
  funds(wallet: Address, tokenIds: bigint[]): Promise<{ collateral: bigint; tokens: Record<string, bigint> }>;
  nonce(wallet: Address): Promise<bigint>;
}

export function watchChainOf(port: ChainPort): WatchChain {
  return {
    chainId: port.chainId,
    blockRef: (at) => getBlockRef(port.context, at),
    events: (fromBlock, toBlock) => getWatchedEvents(port.context, fromBlock, toBlock),
    async funds(wallet, tokenIds) {
      const b = await port.readWalletBalances(wallet, tokenIds);
      const tokens: Record<string, bigint> = {};
      for (const [id, units] of Object.entries(b.tokenBalances)) tokens[id] = b.tokensApprovedForAll ? units : 0n;
      return { collateral: b.collateralBalance < b.collateralAllowance ? b.collateralBalance : b.collateralAllowance, tokens };
    },
    nonce: (wallet) => port.makerNonce(wallet),
  };
}

export type { WatchCursor };

export interface ScanInput {
  chainId: number;
  /** Null: the first scan, which starts at the head (orders placed before were checked at placement). */
  cursor: WatchCursor | null;
  /** Deepest reorg handled (CHAIN_CONFIRMATIONS): blocks scanned again when the cursor's block was replaced. */
  reorgDepth: number;
  /** Most blocks per scan (a watcher catching up after an outage goes in steps). */
  maxBlocks: number;
  /** Between scans that find nothing to remove, ms. */
  pollMs: number;
  /** Scans in one activity for up to this long while they find nothing to remove, ms (keeps the history short). */
  windowMs: number;
}

export interface Removal {
  market: MarketRef;
  reason: VoidReason;
  hashes: string[];
}

export interface ScanResult {
  cursor: WatchCursor;
  /** Orders to take off their books, per market and reason. */
  removals: Removal[];
  /** Whether the scan reached the head (else the next one follows at once). */
  caughtUp: boolean;
  reorged: boolean;
  events: number;
  /** Wallets with open orders that were checked. */
  checked: number;
}

const OPEN = ['OPEN', 'PARTIALLY_FILLED'];
const PROJECTION = {
  order_hash: 1, wallet: 1, market_key: 1, condition_id: 1, side: 1, token_id: 1, price_ticks: 1, fee_rate_bps: 1, remaining_units: 1, nonce: 1, created_at: 1,
} as const;

type StoredOpen = OpenOrder & { wallet: string; condition_id: string };

export function createChainWatcherActivities(deps: { collections: MatchingCollections; chain: () => WatchChain; logger: Logger }) {
  const { collections: c, logger } = deps;

  /** Open orders of these wallets and these hashes, in chunks the store looks up by index. */
  async function openOrdersOf(chainId: number, wallets: string[], hashes: string[]): Promise<StoredOpen[]> {
    const queries: Promise<StoredOpen[]>[] = [];
    const find = (filter: object) => c.orders.find({ ...filter, chain_id: chainId, status: { $in: OPEN } } as never, { projection: PROJECTION }).toArray() as unknown as Promise<StoredOpen[]>;
    for (let i = 0; i < wallets.length; i += IDS_PER_QUERY) queries.push(find({ wallet: { $in: wallets.slice(i, i + IDS_PER_QUERY) } }));
    for (let i = 0; i < hashes.length; i += IDS_PER_QUERY) queries.push(find({ _id: { $in: hashes.slice(i, i + IDS_PER_QUERY) } }));
    const byHash = new Map<string, StoredOpen>();
    for (const list of await Promise.all(queries)) for (const o of list) byHash.set(o.order_hash, o);
    return [...byHash.values()];
  }

  /** The blocks to scan next, and the cursor's replacement if a reorg took its block. */
  async function rangeOf(chain: WatchChain, input: ScanInput, head: BlockRef): Promise<{ from: bigint; reorged: boolean }> {
    const range = await nextScanStart(chain, input.cursor!, head, input.reorgDepth);
    if (range.reorged) {
      logger.warn({ chainId: input.chainId, cursor: input.cursor, head: head.number.toString(), rescanFrom: range.from.toString() }, 'chain watcher: cursor block replaced (reorg); scanning again');
    }
    return range;
  }

  /**
   * Scans from the cursor until a scan finds orders to remove or `windowMs` has passed,
   * heartbeating the cursor: a retry after a lost worker goes on from the last scan that removed
   * nothing (the workflow's cursor when there is none).
   */
  async function watchChain(input: ScanInput): Promise<ScanResult> {
    const ctx = Context.current();
    const until = Date.now() + input.windowMs;
    const resumed = ctx.info.heartbeatDetails as WatchCursor | undefined;
    const cursor = resumed ?? input.cursor;
    let result = await scanOnce({ ...input, cursor });
    // The first scan only picks the starting block: the workflow keeps it at once.
    if (!cursor) return result;
    while (result.removals.length === 0 && Date.now() < until) {
      ctx.heartbeat(result.cursor);
      if (result.caughtUp) await ctx.sleep(input.pollMs);
      const next = await scanOnce({ ...input, cursor: result.cursor });
      result = { ...next, reorged: result.reorged || next.reorged, events: result.events + next.events, checked: result.checked + next.checked };
    }
    return result;
  }

  async function scanOnce(input: ScanInput): Promise<ScanResult> {
    const chain = deps.chain();
    if (chain.chainId !== input.chainId) throw ApplicationFailure.nonRetryable(`this worker watches chain ${chain.chainId}, not ${input.chainId}`, 'CHAIN_MISMATCH');
    const head = await chain.blockRef('latest');
    if (!head) throw new Error('chain has no head block');
    const headCursor = { block: head.number.toString(), hash: head.hash };
    const empty = { removals: [], events: 0, checked: 0 };
    if (!input.cursor) return { cursor: headCursor, caughtUp: true, reorged: false, ...empty };
    const { from, reorged } = await rangeOf(chain, input, head);
    if (from > head.number) return { cursor: headCursor, caughtUp: true, reorged, ...empty };
    const last = from + BigInt(input.maxBlocks) - 1n;
    const to = last < head.number ? await chain.blockRef(last) : head;
    if (!to) throw new Error(`chain has no block ${last}`);
    const events = await chain.events(from, to.number);
    const { removals, checked } = await decide(chain, input.chainId, events);
    return { cursor: { block: to.number.toString(), hash: to.hash }, removals, caughtUp: to.number === head.number, reorged, events: events.length, checked };
  }

  /** Reads the chain before the store (see below), then decides per wallet. */
  async function decide(chain: WatchChain, chainId: number, events: WatchedEvent[]): Promise<{ removals: Removal[]; checked: number }> {
    const fundsOf = new Set<string>();
    const nonceOf = new Set<string>();
    const cancelled = new Set<string>();
    for (const e of events) {
      if (e.kind === 'funds') fundsOf.add(e.wallet.toLowerCase());
      else if (e.kind === 'nonce') nonceOf.add(e.maker.toLowerCase());
      else cancelled.add(e.orderHash.toLowerCase());
    }
    fundsOf.delete('0x0000000000000000000000000000000000000000');
    if (fundsOf.size + nonceOf.size + cancelled.size === 0) return { removals: [], checked: 0 };
    // Which named wallets have open orders, and which outcome tokens they sell.
    const first = await openOrdersOf(chainId, [...new Set([...fundsOf, ...nonceOf])], [...cancelled]);
    const wallets = new Set(first.map((o) => o.wallet));
    const backing = new Map<string, WalletBacking>();
    await Promise.all([...wallets].map(async (wallet) => {
      const b: WalletBacking = { collateral: 0n, tokens: {}, fundsRead: false };
      if (fundsOf.has(wallet)) {
        const tokenIds = [...new Set(first.filter((o) => o.wallet === wallet && o.side === 'SELL').map((o) => o.token_id))].map(BigInt);
        Object.assign(b, await chain.funds(wallet as Address, tokenIds), { fundsRead: true });
      }
      if (nonceOf.has(wallet)) b.nonce = await chain.nonce(wallet as Address);
      backing.set(wallet, b);
    }));
    // The store again, after the chain: a fill the chain read shows paid was written (its order's
    // remaining lowered) before its settlement was sent, so this read sees it too.
    const orders = await openOrdersOf(chainId, [...wallets], [...cancelled]);
    const voided = [...wallets].flatMap((wallet) => voidedOrders(orders.filter((o) => o.wallet === wallet), backing.get(wallet)!, cancelled));
    const conditionOf = new Map(orders.map((o) => [o.market_key, o.condition_id]));
    const grouped = new Map<string, Removal>();
    for (const v of voided) {
      const key = `${v.market_key}|${v.reason}`;
      let removal = grouped.get(key);
      if (!removal) grouped.set(key, (removal = { market: { chain_id: chainId, condition_id: conditionOf.get(v.market_key)! }, reason: v.reason, hashes: [] }));
      removal.hashes.push(v.order_hash);
    }
    if (voided.length > 0) logger.info({ chainId, voided: voided.length, wallets: wallets.size }, 'chain watcher: open orders voided on chain');
    return { removals: [...grouped.values()], checked: wallets.size };
  }

  return { watchChain };
}

export type ChainWatcherActivities = ReturnType<typeof createChainWatcherActivities>;
