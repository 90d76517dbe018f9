import type { Address, Hex } from 'viem';
import { countOrderResults } from '../metrics/order-metrics';
import type { MarketRef } from '../ports/market-matcher';
import type { OrderRecord } from '../ports/order-record';
import type { MarketRecord } from '../db/models/market.model';
import { orderDigest, verifyOrderSignature } from '../signing';
import { balanceAssetOf, type AssetRef } from './balance-cache';
import { checkOrder, type CheckedOrder } from './check-order';
import type { OrderContext } from './context';
import type { PlaceOrderItem } from './order.schema';
import { reject, type OrderRejection } from './order-rejection';
import { presentPlaced } from '../presenters/present-order';
import { collateralAsset, tokenAsset } from './reservations';
import { timed } from '../logging/stage-timings';
import { marketKeyOf } from '../matching/market-ids';

export type PlaceResult = Record<string, unknown> | OrderRejection;

interface Candidate extends CheckedOrder {
  index: number;
  orderHash: string;
}

const marketKey = (chainId: number, conditionId: string) => marketKeyOf({ chain_id: chainId, condition_id: conditionId });

/**
 * POST /v1/orders for one wallet: every order is checked on its own and answered in request order;
 * accepted ones are reserved, persisted (OPEN, handoff PENDING) and handed to their market's
 * workflow. Never waits for matching.
 */
export async function placeOrders(ctx: OrderContext, wallet: string, items: PlaceOrderItem[]): Promise<{ results: PlaceResult[] }> {
  await ctx.ready();
  const caller = wallet.toLowerCase();
  const results: (PlaceResult | undefined)[] = new Array(items.length);
  const markets = await timed('place.loadMarkets', () => loadMarkets(ctx, items));
  const nowSeconds = Math.floor(ctx.clock().getTime() / 1000);

  let candidates: Candidate[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (item.signer.toLowerCase() !== caller) {
      results[index] = reject('WALLET_MISMATCH', 'Order signer (= maker) is not the authenticated wallet', { signer: item.signer, wallet: caller });
      return;
    }
    const checked = checkOrder(item, markets.get(marketKey(item.chain_id, item.condition_id)), nowSeconds);
    if ('error' in checked) {
      results[index] = checked;
      return;
    }
    const digest = orderDigest(checked.order, checked.domain);
    const orderHash = `0x${Buffer.from(digest).toString('hex')}`;
    if (seen.has(orderHash)) {
      results[index] = reject('INVALID_ORDER', 'Duplicate of an order earlier in this batch', { order_hash: orderHash });
      return;
    }
    seen.add(orderHash);
    const clientId = item.client_order_id;
    if (clientId !== undefined) {
      if (seen.has(`c|${clientId}`)) {
        results[index] = reject('INVALID_ORDER', `client_order_id ${clientId} is used twice in this batch`, { client_order_id: clientId });
        return;
      }
      seen.add(`c|${clientId}`);
    }
    candidates.push({ ...checked, index, orderHash });
  });

  candidates = await timed('place.checkSignatures', () => checkSignatures(ctx, candidates, results));
  warmChainReads(ctx, caller as Address, candidates);
  // No lookup for orders placed before: the insert's unique `_id` finds them (`persist`), and a
  // reservation refused for one is answered as the duplicate it is (`reserve`).
  candidates = await timed('place.checkNonces', () => checkNonces(ctx, caller as Address, candidates, results));
  const claimed = await timed('place.clientIds', () => claimClientIds(ctx, caller, candidates, results));
  candidates = claimed.kept;
  // The hand-off markers go out beside the reservation: an order needs its marker only before it
  // exists (`persist` waits for them), and the reservation is a round trip of its own.
  const now = ctx.clock();
  const records = new Map(candidates.map((c) => [c.orderHash, toRecord(c, caller, now)]));
  const marked = timed('place.markers', () => ctx.placementWrites.mark([...records.values()]));
  marked.catch(() => undefined); // awaited by persist; a reservation failure leaves orphans to the sweeper
  const reserved = await timed('place.reserve', () => reserve(ctx, caller, candidates, results));
  // From here the orders are a write away from their hand-off: a market's signal may wait for them.
  const arrivals = announceArrivals(ctx, reserved);
  try {
    const placed = await timed('place.persist', () => persist(ctx, candidates, reserved, records, marked, results));
    await releaseUnplaced(ctx, caller, claimed.mine, placed);
    await timed('place.handOff', () => handOff(ctx, placed, arrivals));
  } finally {
    for (const withdraw of arrivals.values()) withdraw();
  }
  const answered = results.map((r) => r ?? reject('INTERNAL_ERROR'));
  countOrderResults(answered);
  return { results: answered };
}

function loadMarkets(ctx: OrderContext, items: PlaceOrderItem[]): Promise<Map<string, MarketRecord>> {
  const wanted = new Map(items.map((i) => [marketKey(i.chain_id, i.condition_id), { chain_id: i.chain_id, condition_id: i.condition_id }]));
  return ctx.marketRecords.find([...wanted.values()]);
}

async function checkSignatures(ctx: OrderContext, candidates: Candidate[], results: (PlaceResult | undefined)[]): Promise<Candidate[]> {
  const kept: Candidate[] = [];
  await Promise.all(
    candidates.map(async (c) => {
      const check = verifyOrderSignature(c.order, c.order.signature, c.domain);
      if (check.ok) {
        kept.push(c);
        return;
      }
      if (check.reason === 'NEEDS_CHAIN' && ctx.chain.isValidContractSignature) {
        const digest: Hex = `0x${Buffer.from(orderDigest(c.order, c.domain)).toString('hex')}`;
        const valid = await ctx.chain.isValidContractSignature({ chainId: c.market.chain_id, wallet: c.order.signer, digest, signature: c.order.signature });
        if (valid) {
          kept.push(c);
          return;
        }
      }
      const details: Record<string, unknown> = { expected_signer: c.order.signer.toLowerCase() };
      if (check.recovered) details.recovered_signer = check.recovered;
      const message = check.reason === 'WRONG_SIGNER'
        ? `Signature was made by ${check.recovered}, not the signer`
        : check.reason === 'NEEDS_CHAIN' ? 'EIP-1271 signature was not accepted by the signer contract' : 'Signature is malformed';
      results[c.index] = reject('INVALID_SIGNATURE', message, details);
    }),
  );
  return kept.sort((a, b) => a.index - b.index);
}

/**
 * Starts the chain reads the nonce and balance checks will make (maker nonces, spendable balances)
 * at once: the balance cache keeps the promises, so the checks that follow find them under way or
 * done instead of waiting for each in turn. A failed read is not kept, and the check that needs it
 * reads again (and answers its error).
 */
function warmChainReads(ctx: OrderContext, wallet: Address, candidates: Candidate[]): void {
  const started = new Set<string>();
  const once = (key: string, read: () => Promise<unknown>) => {
    if (started.has(key)) return;
    started.add(key);
    read().catch(() => undefined);
  };
  for (const c of candidates) {
    once(`n|${c.market.chain_id}|${c.domain.verifyingContract}`, () => ctx.balances.makerNonce(wallet, c.market.chain_id, c.domain.verifyingContract));
    const { key, ref } = assetOf(c);
    once(`a|${key}`, () => ctx.balances.spendable(wallet, ref));
  }
}

async function checkNonces(ctx: OrderContext, wallet: Address, candidates: Candidate[], results: (PlaceResult | undefined)[]): Promise<Candidate[]> {
  const kept: Candidate[] = [];
  for (const c of candidates) {
    const current = await ctx.balances.makerNonce(wallet, c.market.chain_id, c.domain.verifyingContract);
    if (c.order.nonce === current) kept.push(c);
    else results[c.index] = reject('INVALID_ORDER', `Nonce ${c.order.nonce} is not the maker's current nonce ${current}`, { nonce: current.toString() });
  }
  return kept;
}

/**
 * Claims the candidates' client order ids (client-order-ids.ts) before anything is reserved: an id
 * held by another live order of the wallet is an inline INVALID_ORDER. `mine` are the claims this
 * request made, given back for orders it does not place.
 */
async function claimClientIds(
  ctx: OrderContext, wallet: string, candidates: Candidate[], results: (PlaceResult | undefined)[],
): Promise<{ kept: Candidate[]; mine: Candidate[] }> {
  const named = candidates.filter((c) => c.item.client_order_id !== undefined);
  if (named.length === 0) return { kept: candidates, mine: [] };
  const outcomes = await ctx.clientOrderIds.claim(wallet, named.map(claimOf));
  const refused = new Set<Candidate>();
  const mine: Candidate[] = [];
  named.forEach((c, i) => {
    const outcome = outcomes[i];
    if ('claimed' in outcome) mine.push(c);
    if (!('heldBy' in outcome)) return;
    refused.add(c);
    results[c.index] = reject('INVALID_ORDER', `client_order_id ${c.item.client_order_id} is in use by a live order`, {
      client_order_id: c.item.client_order_id, order_hash: outcome.heldBy,
    });
  });
  return { kept: candidates.filter((c) => !refused.has(c)), mine };
}

function claimOf(c: Candidate): { clientOrderId: string; orderHash: string } {
  return { clientOrderId: c.item.client_order_id!, orderHash: c.orderHash };
}

/**
 * Claims of orders this request did not place go back at once, so the id is free again; not those
 * of an order another request stored (the same signed order placed twice: the claim is its).
 */
async function releaseUnplaced(ctx: OrderContext, wallet: string, mine: Candidate[], placed: OrderRecord[]): Promise<void> {
  const placedHere = new Set(placed.map((o) => o.order_hash));
  const unplaced = mine.filter((c) => !placedHere.has(c.orderHash));
  if (unplaced.length === 0) return;
  try {
    const storedElsewhere = await ctx.placementWrites.stored(unplaced.map((c) => c.orderHash));
    await ctx.clientOrderIds.release(wallet, unplaced.filter((c) => !storedElsewhere.has(c.orderHash)).map(claimOf));
  } catch (error) {
    ctx.logger?.warn({ err: error }, 'client order id claims not released; they lapse after the grace period');
  }
}

/** The reservation asset an order holds (`asset`), keyed per chain (`key`), and where to read its balance. */
function assetOf(c: Candidate): { key: string; asset: string; ref: AssetRef } {
  const m = c.market;
  const asset = c.item.side === 'BUY' ? collateralAsset(m.collateral_token) : tokenAsset(c.item.token_id);
  return { key: `${m.chain_id}|${asset}`, asset, ref: balanceAssetOf(m, c.item.side, c.order.tokenId) };
}

async function reserve(ctx: OrderContext, wallet: string, candidates: Candidate[], results: (PlaceResult | undefined)[]): Promise<Candidate[]> {
  const groups = new Map<string, { ref: AssetRef; asset: string; items: Candidate[] }>();
  for (const c of candidates) {
    const { key, asset, ref } = assetOf(c);
    const group = groups.get(key) ?? { ref, asset, items: [] };
    group.items.push(c);
    groups.set(key, group);
  }
  const kept: Candidate[] = [];
  for (const group of groups.values()) {
    const available = await timed('place.spendable', () => ctx.balances.spendable(wallet as Address, group.ref));
    const outcome = await ctx.reservationStore.reserve({
      wallet,
      chainId: group.ref.chainId,
      asset: group.asset,
      available,
      items: group.items.map((c) => ({ order_hash: c.orderHash, units: c.needUnits })),
    });
    // An order placed before (and ended since: its hold is gone) is a duplicate, not a shortfall.
    const refused = group.items.filter((c) => outcome.rejected.has(c.orderHash));
    const placedBefore = refused.length > 0 ? await ctx.placementWrites.stored(refused.map((c) => c.orderHash)) : new Map<string, bigint>();
    for (const c of group.items) {
      const short = outcome.rejected.get(c.orderHash);
      if (!short) {
        kept.push(c);
        continue;
      }
      if (placedBefore.has(c.orderHash)) {
        results[c.index] = duplicate(c);
        continue;
      }
      const what = c.item.side === 'BUY' ? 'collateral (balance and allowance)' : 'outcome tokens (balance with exchange approval)';
      results[c.index] = reject('INSUFFICIENT_BALANCE', `Not enough ${what} left after open orders and unsettled matches`, {
        asset: c.item.side === 'BUY' ? 'collateral' : 'token',
        required: short.required.toString(),
        available: short.available.toString(),
      });
    }
  }
  return kept.sort((a, b) => a.index - b.index);
}

function toRecord(c: Candidate, wallet: string, now: Date): OrderRecord {
  const { item, market } = c;
  return {
    order_hash: c.orderHash,
    wallet,
    chain_id: market.chain_id,
    condition_id: market.condition_id,
    market_key: marketKey(market.chain_id, market.condition_id),
    side: item.side,
    outcome: item.outcome,
    order_type: item.order_type,
    price: c.price,
    price_ticks: c.priceTicks,
    size: c.size,
    size_units: c.sizeUnits.toString(),
    remaining_size: c.size,
    remaining_units: c.sizeUnits.toString(),
    filled_units: '0',
    status: 'OPEN',
    status_reason: null,
    book_added_at: null,
    salt: item.salt,
    maker: wallet,
    signer: wallet,
    taker: item.taker.toLowerCase(),
    token_id: item.token_id,
    maker_amount: item.maker_amount,
    taker_amount: item.taker_amount,
    expiration: item.expiration,
    nonce: item.nonce,
    fee_rate_bps: item.fee_rate_bps,
    signature_type: item.signature_type,
    signature: item.signature.toLowerCase(),
    client_order_id: item.client_order_id ?? null,
    post_only: item.post_only === true,
    reserved_units: c.needUnits.toString(),
    handoff: 'PENDING',
    applied_seq: 0,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Inserts the reserved orders once their markers are written, and deletes the markers of the
 * orders the reservation refused (beside the insert: they were written for orders that will not
 * exist; a request that dies first leaves them to the sweeper's orphan rule).
 */
async function persist(
  ctx: OrderContext, checked: Candidate[], reserved: Candidate[], records: Map<string, OrderRecord>, marked: Promise<void>, results: (PlaceResult | undefined)[],
): Promise<OrderRecord[]> {
  if (checked.length === 0) return [];
  await marked;
  const kept = new Set(reserved.map((c) => c.orderHash));
  const refused = checked.filter((c) => !kept.has(c.orderHash)).map((c) => records.get(c.orderHash)!);
  const toInsert = reserved.map((c) => records.get(c.orderHash)!);
  const [inserted] = await Promise.all([toInsert.length > 0 ? ctx.placementWrites.insert(toInsert) : [], ctx.placementWrites.unmark(refused)]);
  const placed: OrderRecord[] = [];
  const notPlaced: Candidate[] = [];
  const failed: OrderRecord[] = [];
  for (const [i, c] of reserved.entries()) {
    const outcome = inserted[i];
    if (outcome === true) {
      placed.push(toInsert[i]);
      results[c.index] = presentPlaced(toInsert[i]);
      continue;
    }
    notPlaced.push(c);
    if (outcome === false) {
      results[c.index] = duplicate(c);
    } else {
      // This document alone failed (its siblings were written): it is answered on its own, and
      // its hold and marker are taken back below, instead of a 500 for orders that are live.
      ctx.logger?.error({ err: outcome, order_hash: c.orderHash }, 'order insert failed');
      results[c.index] = reject('SERVICE_DEGRADED', 'The order could not be stored and was not placed; retry it');
      failed.push(toInsert[i]);
    }
  }
  if (notPlaced.length > 0) {
    await timed('place.unplacedHolds', () => Promise.all([settleUnplacedHolds(ctx, notPlaced), ctx.placementWrites.unmark(failed)]));
  }
  return placed;
}

function duplicate(c: Candidate): OrderRejection {
  return reject('INVALID_ORDER', 'Duplicate of an order already placed', { order_hash: c.orderHash });
}

/**
 * Reserved orders the insert did not place: found placed before by its unique `_id` (a repeat, or
 * a race with another request placing the same signed order), or failed on their own. The hold is
 * keyed by order hash, so the reservation either found the stored order's hold (it is still open:
 * nothing changed) or took a new one for an order that has ended or was never stored; the hold
 * goes back down to what the stored order still reserves, 0 when there is none (`lowerHold` never
 * raises: the hold of an order that won the race stays). The hand-off markers of duplicates stay:
 * they may be the stored order's, and the sweeper drops those of taken orders.
 */
async function settleUnplacedHolds(ctx: OrderContext, unplaced: Candidate[]): Promise<void> {
  const stored = await ctx.placementWrites.stored(unplaced.map((c) => c.orderHash));
  await Promise.all(unplaced.map((c) => {
    const { asset, ref } = assetOf(c);
    return ctx.reservationStore.lowerHold({ wallet: c.order.signer.toLowerCase(), chainId: ref.chainId, asset }, c.orderHash, stored.get(c.orderHash) ?? 0n);
  }));
}

/** Announces the reserved orders' markets to the matcher (`MarketMatcher.announce`): market key -> withdraw. */
function announceArrivals(ctx: OrderContext, reserved: Candidate[]): Map<string, () => void> {
  const arrivals = new Map<string, () => void>();
  for (const { market } of reserved) {
    const key = marketKey(market.chain_id, market.condition_id);
    if (!arrivals.has(key)) arrivals.set(key, ctx.matcher.announce({ chain_id: market.chain_id, condition_id: market.condition_id }));
  }
  return arrivals;
}

/**
 * Hands the persisted orders to their markets' workflows, each market's announcement withdrawn as
 * its orders go. A failure here does not fail the placement: the orders are durable with handoff
 * PENDING and the matcher's recovery re-sends them.
 */
async function handOff(ctx: OrderContext, placed: OrderRecord[], arrivals: Map<string, () => void>): Promise<void> {
  const byMarket = new Map<string, { market: MarketRef; hashes: string[] }>();
  for (const o of placed) {
    const group = byMarket.get(o.market_key) ?? { market: { chain_id: o.chain_id, condition_id: o.condition_id }, hashes: [] };
    group.hashes.push(o.order_hash);
    byMarket.set(o.market_key, group);
  }
  await Promise.all(
    [...byMarket].map(async ([key, { market, hashes }]) => {
      try {
        arrivals.get(key)?.();
        await ctx.matcher.submit(market, hashes);
      } catch (error) {
        ctx.logger?.error({ err: error, market, orders: hashes.length }, 'order hand-off failed; left PENDING for recovery');
        // Recovery finds the orders by their markers. A request that was refused the same signed
        // order may have deleted the marker this one shared (`unmark`): write them again.
        await ctx.placementWrites.mark(placed.filter((o) => o.market_key === key)).catch((markError: unknown) => {
          ctx.logger?.error({ err: markError, market }, 'hand-off markers of a failed hand-off not written again; a worker start finds the orders');
        });
      }
    }),
  );
}
