/**
 * Plain-JSON payloads between the market workflow and its activities. Money is decimal strings of
 * base units (no bigint in Temporal payloads), prices are integer ticks, times are unix ms/seconds
 * as stated. Every write carries the engine seq that produced it, so retried activities never
 * apply a write twice (FerretDB has no transactions: idempotency comes from guarded upserts).
 */
import type { StatusReason } from '../ports/status-reasons';
import { ZERO_ADDRESS } from '../engine/types';
import type { MarketRef } from './market-ids';

export type MarketStatus = 'OPEN' | 'CLOSED' | 'RESOLVED' | 'PAUSED' | 'SEEDING';

/** What the workflow needs to know of its market, loaded at the start of every run. */
export interface MarketInfo {
  found: boolean;
  status: MarketStatus;
  resolution_outcome: 0 | 1 | null;
  /** Base-unit decimals D of the market's tokens (10^D per share). */
  decimals: number;
  fee_rate_bps: number;
}

export interface EngineCounters {
  seq: number;
  bookSeq: number;
  tradeSeq: number;
  arrival: number;
}

/** A signed order as the engine takes it, bigints as decimal strings. */
export interface PlaceableOrder {
  hash: string;
  maker: string;
  taker: string;
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  orderType: 'LIMIT' | 'GTD' | 'MARKET' | 'FOK';
  price: number;
  size: string;
  makerAmount: string;
  takerAmount: string;
  expiration: number;
  feeRateBps: number;
  /** Present (true) on post-only orders only. */
  postOnly?: true;
}

/** A resting order as persisted, enough to rebuild the engine (SnapshotOrder without marketId). */
export interface RestingOrderRow extends PlaceableOrder {
  remaining: string;
  filled: string;
  arrival: number;
}

export interface RestingPage {
  orders: RestingOrderRow[];
  /** Pass as `afterArrival` for the next page; null when this was the last page. */
  next: number | null;
}

/** Why an order the workflow never matched was ended (placement refused or cancelled before it). */
export type DirectEndReason = StatusReason;

export interface PlacementLoad {
  /**
   * Persisted orders to place, in the order their hashes were received, as rows
   * (`placeableRowOf`). Loads recorded before rows existed carry `orders` instead.
   */
  rows?: PlaceableRow[];
  orders?: PlaceableOrder[];
  /** Hashes skipped: unknown, another market's, or already handed over (idempotent re-delivery). */
  skipped: string[];
  /**
   * This step was decided before, by an attempt whose workflow task was lost after it claimed the
   * step (src/matching/step-journal.ts): decide it again over the first `count` hashes of the
   * batch, at workflow time `at`; `rows` are the orders that attempt placed.
   */
  decided?: { at: number; count: number };
}

/** What a placement step decided over, for its write to claim first (src/matching/step-journal.ts). */
export interface StepInputs {
  /** `{run id}:{step number}`. */
  id: string;
  runId: string;
  /** The hashes the step took, in batch order. */
  hashes: string[];
  /** The hashes of those its load returned as placeable. */
  placeable: string[];
}

/** What a step's write answers. */
export interface StepOutcome {
  /** Another attempt claimed this step with other inputs: nothing was written (the workflow task must run again). */
  diverged?: true;
}

/**
 * A PlaceableOrder as a positional row, `taker` '' for the zero address. Every load is recorded in
 * the market workflow's history (a local-activity marker): rows are ~40% smaller than keyed
 * objects, so a run reaches its history bound after more orders (docs/matching.md).
 */
export type PlaceableRow = [
  hash: string, maker: string, taker: string, side: 'BUY' | 'SELL', outcome: 0 | 1, orderType: 'LIMIT' | 'GTD' | 'MARKET' | 'FOK',
  price: number, size: string, makerAmount: string, takerAmount: string, expiration: number, feeRateBps: number,
  /** 1 on post-only orders; absent otherwise (and in rows recorded before the field). */
  postOnly?: 1,
];

export function placeableRowOf(o: PlaceableOrder): PlaceableRow {
  const taker = o.taker.toLowerCase() === ZERO_ADDRESS ? '' : o.taker;
  const row: PlaceableRow = [o.hash, o.maker, taker, o.side, o.outcome, o.orderType, o.price, o.size, o.makerAmount, o.takerAmount, o.expiration, o.feeRateBps];
  if (o.postOnly) row.push(1);
  return row;
}

export function placeableOfRow(row: PlaceableRow): PlaceableOrder {
  const [hash, maker, taker, side, outcome, orderType, price, size, makerAmount, takerAmount, expiration, feeRateBps, postOnly] = row;
  const order: PlaceableOrder = { hash, maker, taker: taker === '' ? ZERO_ADDRESS : taker, side, outcome, orderType, price, size, makerAmount, takerAmount, expiration, feeRateBps };
  if (postOnly === 1) order.postOnly = true;
  return order;
}

/** The orders of a load, in either recorded form. */
export function placeablesOf(load: PlacementLoad): PlaceableOrder[] {
  return load.rows ? load.rows.map(placeableOfRow) : (load.orders ?? []);
}

export interface OrderLookup {
  order_hash: string;
  wallet: string;
  market_key: string;
  status: string;
  handoff: string;
}

/** Final state of one order after a batch (last engine event touching it). */
export interface OrderWrite {
  hash: string;
  seq: number;
  status: 'OPEN' | 'PARTIALLY_FILLED' | 'MATCHED' | 'CANCELLED' | 'EXPIRED' | 'MATCH_FAILED';
  remaining: string;
  filled: string;
  /** Set when this batch placed the order (it reached the book or ended): book_added_at and handoff ACCEPTED. */
  placed: boolean;
  /** Engine arrival number while the order rests (FIFO key for rebuilding the book), else null. */
  arrival: number | null;
  /** Why it ended (a StatusReason, or an engine cancel reason: src/orders/status-reasons.ts maps it). */
  reason: string | null;
}

/** An order ended without the engine: only applies while the record is still handoff PENDING and OPEN. */
export interface DirectEnd {
  hash: string;
  status: 'CANCELLED' | 'MATCH_FAILED';
  reason: DirectEndReason;
}

export interface TradeLegWrite {
  orderHash: string;
  maker: string;
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  price: number;
  size: string;
  collateral: string;
  fee: string;
}

export interface TradeWrite {
  tradeId: string;
  seq: number;
  kind: 'TRANSFER' | 'MINT' | 'MERGE';
  yesPrice: number;
  size: string;
  maker: TradeLegWrite;
  taker: TradeLegWrite;
}

export interface BookDeltaWrite {
  bookSeq: number;
  changes: { side: 'bid' | 'ask'; price: number; remaining: string }[];
}

export interface TickerWrite {
  seq: number;
  bestBid: number | null;
  bestAsk: number | null;
  lastPrice: number | null;
}

/** Everything one workflow step changed: written and published by ONE activity. */
export interface BatchWrite {
  market: MarketRef;
  decimals: number;
  /** Workflow time of the step, unix ms. */
  at: number;
  orders: OrderWrite[];
  direct: DirectEnd[];
  trades: TradeWrite[];
  book: BookDeltaWrite[];
  ticker: TickerWrite | null;
  counters: EngineCounters;
  /**
   * The settlement batch that will carry this step's trades (its workflow is
   * `settlement-{settlementBatch}`), written on every fill. Absent (runs before settlements were
   * coalesced): the step's own batch, from its first trade.
   */
  settlementBatch?: string;
  /** A placement step (patch `step-journal`): its inputs, claimed before anything is written. */
  step?: StepInputs;
}

export interface StatusWrite {
  market: MarketRef;
  /** Deterministic id of the change (workflow id, run id and change number): the audit row's unique key. */
  change_id: string;
  from_status: MarketStatus;
  to_status: MarketStatus;
  resolution_outcome: 0 | 1 | null;
  actor: string;
  at: number;
}

export interface SettlementInput {
  market: MarketRef;
  batchId: string;
  /**
   * Every trade of the batch, when it is one call under `batchId` (batches started before one
   * settlement per step). Batches with `groups` started before compact inputs carry it too.
   */
  tradeIds?: string[];
  /**
   * The batch's `matchOrders` calls, one per taker order (each its own transaction and batch id),
   * settled side by side. A group without `batchId` (compact inputs) is named after its first
   * trade (`settlementGroupsOf`).
   */
  groups?: (Omit<SettlementGroup, 'batchId'> & { batchId?: string })[];
  /**
   * Found again from its fills by a run started cold (RECOVER_PENDING_SETTLEMENTS): an earlier child
   * may have sent it before it was stopped, so the chain is asked before the first send too.
   */
  found?: boolean;
}

export interface SettlementGroup {
  batchId: string;
  tradeIds: string[];
}
