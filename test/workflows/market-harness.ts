/**
 * Shared setup of the matching tests: a market document, persisted orders built like order entry
 * builds them (signed amounts from price and size), a worker on a unique task queue with the real
 * activities, and a recording publisher.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Connection as DbConnection } from 'mongoose';
import { stopBeforeDatabaseCloses } from '../helpers/test-database';
import { createActivities } from '../../activities';
import type { OrderRecord } from '../../src/ports/order-record';
import type { DeliveredEvent, HandoffHoldEvent, HoldLevel, RealtimeEvent, RealtimePublisher, SpendLevel } from '../../src/ports/realtime-publisher';
import { reserveOf, signedAmounts } from '../../src/engine';
import { markHandoffs } from '../../src/matching/handoff-markers';
import { ensureMatchingIndexes, matchingCollections, type FillRecord, type MatchingCollections } from '../../src/matching/collections';
import { fillIdOf, marketKeyOf, type MarketRef } from '../../src/matching/market-ids';
import { createLogger, type Logger } from '../../src/logging/logger';
import { formatCanonical } from '../../src/money';
import { SettlementChainError, type ReceiptState, type SettlementChain, type SubmitOptions } from '../../src/settlement/settlement-port';
import { testTemporalAddress } from '../helpers/test-temporal';
import { startSettlementWorker } from '../helpers/settlement-worker';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

export const D = 18;
export const SHARE = 10n ** 18n;
export const logger = createLogger({ level: 'silent' });

/** A silent logger that keeps the arguments of every `error` call (details, message). */
export function errorRecordingLogger(): { logger: Logger; errors: unknown[][] } {
  const errors: unknown[][] = [];
  return { logger: Object.assign(Object.create(logger) as Logger, { error: (...args: unknown[]) => errors.push(args) }), errors };
}

export function newMarket(): MarketRef {
  return { chain_id: 56, condition_id: `0x${randomBytes(32).toString('hex')}` };
}

/**
 * One side of a 2-share trade at 0.6 as a market step writes it (PENDING), for settlement's tests.
 * `tradePrice: false`: a taker fill written before taker fills carried the trade price.
 */
export function pendingFill(market: MarketRef, tradeId: string, role: 'maker' | 'taker', { at, orderHash, tradePrice = true }: { at: Date; orderHash: string; tradePrice?: boolean }): FillRecord {
  return {
    _id: fillIdOf(tradeId, role), trade_id: tradeId, order_hash: orderHash, wallet: '0xw', chain_id: market.chain_id, condition_id: market.condition_id,
    market_key: marketKeyOf(market), role, side: role === 'taker' ? 'BUY' : 'SELL', outcome: 1, price: '0.6', size: '2', fee: '0',
    size_units: (2n * 10n ** 18n).toString(), fee_units: '0', collateral_units: '0', kind: 'TRANSFER', settlement_status: 'PENDING', tx_hash: '',
    counter_order_hash: '0xother', created_at: at, updated_at: at, ...(role === 'taker' && tradePrice ? { trade_price: '0.6' } : {}),
  };
}

export function wallet(): string {
  return `0x${randomBytes(20).toString('hex')}`;
}

export async function insertMarket(db: DbConnection, market: MarketRef, status = 'OPEN'): Promise<void> {
  const now = new Date();
  await matchingCollections(db).markets.insertOne({
    ...market, question_id: null, question: 'Will it?', kind: 'CLOB', status, resolution_outcome: null, fee_rate_bps: 0,
    summary: { en: 's' }, rules: { en: 'r' },
    tokens: [{ outcome: 0, token_id: '1', decimals: D }, { outcome: 1, token_id: '2', decimals: D }],
    collateral_token: '0x0000000000000000000000000000000000000001', ctf_exchange_address: '0x0000000000000000000000000000000000000002',
    conditional_tokens_address: '0x0000000000000000000000000000000000000003', end_date: now, created_at: now, updated_at: now,
  });
}

export interface OrderSpec {
  wallet: string;
  side: 'BUY' | 'SELL';
  outcome?: 0 | 1;
  /** Ticks 1..100. */
  price: number;
  /** Whole or fractional shares as a decimal string. */
  size: string;
  type?: 'LIMIT' | 'GTD' | 'MARKET' | 'FOK';
  postOnly?: boolean;
  expiration?: number;
  createdAt?: Date;
  /** The signed fee rate (default 0). */
  feeRateBps?: number;
}

let orderCounter = 0;

/** An order record as order entry persists it: OPEN, handoff PENDING, book_added_at null. */
export function orderRecord(market: MarketRef, spec: OrderSpec): OrderRecord {
  const sizeUnits = BigInt(Math.round(Number(spec.size) * 1000)) * (SHARE / 1000n);
  const { makerAmount, takerAmount } = signedAmounts(spec.side, sizeUnits, spec.price);
  const now = spec.createdAt ?? new Date();
  orderCounter += 1;
  const w = spec.wallet.toLowerCase();
  return {
    order_hash: `0x${randomBytes(32).toString('hex')}`, wallet: w, chain_id: market.chain_id, condition_id: market.condition_id,
    market_key: marketKeyOf(market), side: spec.side, outcome: spec.outcome ?? 1, order_type: spec.type ?? (spec.expiration ? 'GTD' : 'LIMIT'),
    price: formatCanonical(BigInt(spec.price), 2), price_ticks: spec.price, size: formatCanonical(sizeUnits, D), size_units: sizeUnits.toString(),
    remaining_size: formatCanonical(sizeUnits, D), remaining_units: sizeUnits.toString(), filled_units: '0', status: 'OPEN', book_added_at: null,
    salt: String(orderCounter), maker: w, signer: w, taker: '0x0000000000000000000000000000000000000000', token_id: spec.outcome === 0 ? '1' : '2',
    maker_amount: makerAmount.toString(), taker_amount: takerAmount.toString(), expiration: String(spec.expiration ?? 0), nonce: '0',
    fee_rate_bps: spec.feeRateBps ?? 0, signature_type: 0, signature: '0x', reserved_units: reserveOf(spec.side, spec.price, sizeUnits, spec.feeRateBps ?? 0).toString(),
    handoff: 'PENDING', applied_seq: 0, created_at: now, updated_at: now, ...(spec.postOnly ? { post_only: true } : {}),
  };
}

export async function persist(db: DbConnection, market: MarketRef, specs: OrderSpec[]): Promise<OrderRecord[]> {
  return store(db, specs.map((s) => orderRecord(market, s)));
}

/** Stores order records as order entry does: a hand-off marker first, then the order with `_id` = its hash. */
export async function store(db: DbConnection, records: OrderRecord[]): Promise<OrderRecord[]> {
  await markHandoffs(matchingCollections(db).handoffs, records);
  await matchingCollections(db).orders.insertMany(records.map((r) => ({ _id: r.order_hash, ...r })));
  return records;
}

export class RecordingPublisher implements RealtimePublisher {
  /** The events for sockets, in order. */
  readonly events: DeliveredEvent[] = [];
  /** The internal hold levels (`holds` events), in order. */
  readonly holds: HoldLevel[] = [];
  /** The internal hand-off holds (`handoffs` events), in order. */
  readonly handoffHolds: HandoffHoldEvent[] = [];
  /** The internal spends of mined fills (`spends` events), in order. */
  readonly spends: SpendLevel[] = [];
  publish(events: RealtimeEvent[]): Promise<void> {
    for (const e of events) {
      if (e.channel === 'holds') this.holds.push(...e.holds);
      else if (e.channel === 'spends') this.spends.push(...e.spends);
      else if (e.channel === 'handoffs') this.handoffHolds.push(e);
      else if (e.channel !== 'markets') this.events.push(e);
    }
    return Promise.resolve();
  }
}

/** Settles instantly and deterministically: tx hash from the batch id, confirmed at once. */
/** The harness's wait for confirmations (50 ms polls): a receipt unconfirmed longer takes the MINED path. */
export const CONFIRM_WAIT_MS = 300;

/** A 32-byte hash made of `text` (its hex, cut or padded), after `prefix`: deterministic, readable in a failure. */
function fakeHash(text: string, prefix = '0x'): string {
  return `${prefix}${Buffer.from(text).toString('hex').slice(0, 66 - prefix.length).padEnd(66 - prefix.length, '0')}`;
}

/** The hashes of the fake's transactions that refused their match inside. */
const refusedHashPrefix = '0xdeadbeef';
/** The hash of every batch transaction sent while `refuseBatchTransactions` (each reverts). */
const revertedBatchHash = `0x${'ba'.repeat(32)}`;

/** What the fake reads of an order. */
type FakeOrder = { order_hash: string; expiration?: string };

export class FakeChain implements SettlementChain {
  readonly requiredConfirmations = 1;
  readonly sent: { batchId: string; attempt: number; trades: number }[] = [];
  /** Sends that fail (transiently) before one succeeds, per batch. */
  failFirst = 0;
  /** Sends the chain takes whose answer is then lost (the caller sees a transient error). */
  loseAnswers = 0;
  /** Sends the chain takes whose answer is then lost, and which the node cannot be asked about (an unknown outcome). */
  loseAnswersUnasked = 0;
  /** Taker order hash -> tx hash of the match that took it (a taker is matched once, as on chain). */
  readonly matchedTakers = new Map<string, string>();
  failAlways = false;
  /**
   * Takers whose next send together with others is mined but refused inside its transaction (once
   * each), with the contract's reason ('' for none).
   */
  readonly refuseInsideBatch = new Map<string, string>();
  private readonly refusedInside = new Map<string, string>();
  /**
   * Takers whose next send together with others is a copy: an earlier transaction (still pending
   * when the copy was sent) settles the match, and the copy is refused inside as filled.
   */
  readonly settledByEarlier = new Set<string>();
  /** While true, every transaction of several batches reverts whole (an exchange deployed before `matchOrdersBatch`). */
  refuseBatchTransactions = false;
  /** While true, receipts stay pending (fills stay PENDING). */
  hold = false;
  /** While true, a transaction's first receipt read has no confirmation yet (fills pass through MINED). */
  /** Receipt reads that see no confirmation yet, per transaction (0: confirmed when first read). */
  slowConfirmations = 0;
  private readonly receiptReads = new Map<string, number>();
  cancelledOnChain = new Set<string>();

  /** Seconds the chain's clock (block timestamps) runs ahead of this machine's. */
  clockAheadS = 0;

  chainTime(): Promise<number> {
    return Promise.resolve(Math.floor(Date.now() / 1000) + this.clockAheadS);
  }

  submitMatch(batch: { batchId: string; attempt: number; trades: { taker: { order: FakeOrder }; maker: { order: FakeOrder } }[] }): Promise<string> {
    this.sent.push({ batchId: batch.batchId, attempt: batch.attempt, trades: batch.trades.length });
    if (this.failAlways || batch.attempt <= this.failFirst) return Promise.reject(new SettlementChainError('nonce too low', true));
    // The exchange refuses a match any of whose orders is past its expiration at the block's time.
    const now = Math.floor(Date.now() / 1000) + this.clockAheadS;
    const expired = (o: FakeOrder) => o.expiration !== undefined && o.expiration !== '0' && Number(o.expiration) <= now;
    if (batch.trades.some((t) => expired(t.taker.order) || expired(t.maker.order))) {
      return Promise.reject(new SettlementChainError('matchOrders reverted: Exchange: order expired', false));
    }
    const taker = batch.trades[0].taker.order.order_hash;
    // The exchange records every taker it settled: a second match of a taker reverts.
    if (this.matchedTakers.has(taker)) return Promise.reject(new SettlementChainError('matchOrders reverted: Exchange: taker already matched', false));
    const txHash = fakeHash(`${batch.batchId}:${batch.attempt}`);
    this.matchedTakers.set(taker, txHash);
    if (this.loseAnswers > 0) {
      this.loseAnswers -= 1;
      return Promise.reject(new SettlementChainError('socket hang up', true));
    }
    if (this.loseAnswersUnasked > 0) {
      this.loseAnswersUnasked -= 1;
      return Promise.reject(new SettlementChainError(`Chain node lost the answer to transaction ${txHash} and could not say whether it took it`, true, { unknown: true }));
    }
    return Promise.resolve(txHash);
  }

  async submitMatches(batches: Parameters<FakeChain['submitMatch']>[0][], options: SubmitOptions = {}): Promise<(string | SettlementChainError)[]> {
    const out: (string | SettlementChainError)[] = [];
    if (options.together && this.refuseBatchTransactions) {
      // An exchange without `matchOrdersBatch`: the transaction is mined and reverts as a whole.
      for (const batch of batches) this.sent.push({ batchId: batch.batchId, attempt: batch.attempt, trades: batch.trades.length });
      return batches.map(() => revertedBatchHash);
    }
    for (const batch of batches) {
      const taker = batch.trades[0].taker.order.order_hash;
      if (options.together && this.settledByEarlier.has(taker)) {
        this.settledByEarlier.delete(taker);
        this.matchedTakers.set(taker, fakeHash(`earlier:${batch.batchId}`));
        this.refusedInside.set(taker, 'Exchange: taker already matched');
        this.sent.push({ batchId: batch.batchId, attempt: batch.attempt, trades: batch.trades.length });
        out.push(fakeHash(`${batch.batchId}:${batch.attempt}`, refusedHashPrefix));
        continue;
      }
      if (options.together && this.refuseInsideBatch.has(taker)) {
        this.refusedInside.set(taker, this.refuseInsideBatch.get(taker)!);
        this.refuseInsideBatch.delete(taker);
        // Mined, but the exchange refused this match inside its transaction: no match recorded.
        this.sent.push({ batchId: batch.batchId, attempt: batch.attempt, trades: batch.trades.length });
        out.push(fakeHash(`${batch.batchId}:${batch.attempt}`, refusedHashPrefix));
        continue;
      }
      out.push(await this.submitMatch(batch).catch((error: SettlementChainError) => error));
    }
    return out;
  }

  /** Lookups of a taker's match on chain that fail (a node that does not answer) before they answer again. */
  failMatchLookups = 0;

  findMatchOfTaker(_chainId: number, _exchange: string, takerOrderHash: string): Promise<string | null> {
    if (this.failMatchLookups > 0) {
      this.failMatchLookups -= 1;
      return Promise.reject(new Error('fetch failed: connect ECONNREFUSED'));
    }
    return Promise.resolve(this.matchedTakers.get(takerOrderHash) ?? null);
  }

  /** Receipt reads that fail (a node that does not answer) before they answer again. */
  failReceipts = 0;

  getReceipt(_chainId: number, txHash: string): Promise<ReceiptState> {
    if (this.failReceipts > 0) {
      this.failReceipts -= 1;
      return Promise.reject(new Error('fetch failed: connect ECONNREFUSED'));
    }
    if (this.hold) return Promise.resolve({ status: 'pending' });
    if (txHash === revertedBatchHash) return Promise.resolve({ status: 'reverted', blockNumber: '1', confirmations: 1 });
    const reads = (this.receiptReads.get(txHash) ?? 0) + 1;
    this.receiptReads.set(txHash, reads);
    const matchedTakers = [...this.matchedTakers].flatMap(([taker, hash]) => (hash === txHash ? [taker] : []));
    const refusedTakers = txHash.startsWith(refusedHashPrefix) ? [...this.refusedInside].map(([taker, reason]) => ({ taker, reason })) : [];
    return Promise.resolve({ status: 'success', blockNumber: '1', confirmations: reads <= this.slowConfirmations ? 0 : 1, matchedTakers, refusedTakers });
  }

  /** Orders the chain refuses after a refused match (per-leg checks), with why. */
  readonly blame = new Map<string, string>();

  blameGroup(_chainId: number, _exchange: string, trades: { taker: { order: FakeOrder }; maker: { order: FakeOrder } }[]): Promise<{ orderHash: string; reason: string }[]> {
    const hashes = [...new Set(trades.flatMap((t) => [t.taker.order.order_hash, t.maker.order.order_hash]))];
    return Promise.resolve(hashes.flatMap((orderHash) => (this.blame.has(orderHash) ? [{ orderHash, reason: this.blame.get(orderHash)! }] : [])));
  }

  /** On-chain order checks that fail (a node that does not answer) before they answer again. */
  failChecks = 0;

  checkOrder(_chainId: number, _exchange: string, order: OrderRecord): Promise<{ cancelled: boolean; nonceBumped: boolean }> {
    if (this.failChecks > 0) {
      this.failChecks -= 1;
      return Promise.reject(new Error('fetch failed: connect ECONNREFUSED'));
    }
    return Promise.resolve({ cancelled: this.cancelledOnChain.has(order.order_hash), nonceBumped: false });
  }
}

export interface Harness {
  client: Client;
  collections: MatchingCollections;
  publisher: RecordingPublisher;
  chain: FakeChain;
  handoffs: { held: { market: string; ms: number }[] };
  startWorker(): Promise<{ worker: Worker; done: Promise<void> }>;
  /** The run's workflow bundle (a file), for a worker in another process too. */
  workflowBundle(): Promise<{ codePath: string }>;
  /** A worker created now and run later (creating a worker after another one shut down hangs in this SDK/jest setup). */
  prepareWorker(): Promise<{ worker: Worker; start(): { worker: Worker; done: Promise<void> } }>;
  close(): Promise<void>;
}

export async function createHarness(db: DbConnection, taskQueue: string): Promise<Harness> {
  const collections = matchingCollections(db);
  await ensureMatchingIndexes(collections);
  const connection = await Connection.connect({ address: testTemporalAddress() });
  const client = new Client({ connection });
  const publisher = new RecordingPublisher();
  const chain = new FakeChain();
  /** The worker process's own hand-off holds, as the activities set them (market key -> hold ms, in order). */
  const handoffs = { held: [] as { market: string; ms: number }[], hold(market: MarketRef, ms: number) { this.held.push({ market: marketKeyOf(market), ms }); } };
  const natives: NativeConnection[] = [];
  const running: { worker: Worker; done: Promise<void>; settlement?: boolean }[] = [];
  let closing: Promise<void> | undefined;
  const harness: Harness = {
    client, collections, publisher, chain, handoffs,
    workflowBundle: testWorkflowBundle,
    async prepareWorker() {
      const native = await NativeConnection.connect({ address: testTemporalAddress() });
      natives.push(native);
      const workflowBundle = await harness.workflowBundle();
      const activities = createActivities({ db, logger, publisher, chain, handoffs, chainPollMs: 50, confirmWaitMs: CONFIRM_WAIT_MS });
      const worker = await Worker.create({
        connection: native, taskQueue, workflowBundle,
        // A test "kill": in-flight activities are cancelled at once and the worker stops within seconds.
        shutdownGraceTime: '500ms', stickyQueueScheduleToStartTimeout: '1s',
        activities,
      });
      // Settlement's own queue: one worker for the harness's life (a "kill" stops the main worker).
      if (!running.some((r) => r.settlement)) {
        const settlementWorker = await startSettlementWorker(native, taskQueue, activities);
        running.push({ ...settlementWorker, settlement: true });
      }
      return {
        worker,
        start() {
          const entry = { worker, done: worker.run() };
          running.push(entry);
          return entry;
        },
      };
    },
    async startWorker() {
      return (await harness.prepareWorker()).start();
    },
    close() {
      closing ??= (async () => {
        for (const r of running) {
          if (r.worker.getState() === 'RUNNING') r.worker.shutdown();
          await r.done.catch(() => undefined);
        }
        for (const n of natives) await n.close();
        await connection.close();
      })();
      return closing;
    },
  };
  // The workers stop while the test database is still open, whatever the order of the file's hooks.
  stopBeforeDatabaseCloses(db, () => harness.close());
  return harness;
}

/** Records a workflow's history (its latest run, or `runId`) as a replay fixture (RECORD_HISTORIES=1 rewrites test/workflows/histories/). */
export async function saveHistory(h: Harness, workflowId: string, file: string, runId?: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await h.client.workflow.getHandle(workflowId, runId).fetchHistory();
  writeFileSync(join(__dirname, 'histories', file), JSON.stringify(history));
}
