/**
 * An order row has two writers: the market's steps (status, remaining and filled units) and
 * settlement (settled units, and the end of a MATCHED order). Each computes the order's
 * reservation from the other's fields, so each write is guarded by what it read, and a write
 * that the other overtook between its read and its write is computed again. These tests put the
 * other writer's write exactly there.
 */
import { createMarketActivities } from '../../activities/market.activities';
import { createSettlementActivities } from '../../activities/settlement.activities';
import { ensureMatchingIndexes, matchingCollections, type StoredOrder } from '../../src/matching/collections';
import { fillIdOf, marketKeyOf, type MarketRef } from '../../src/matching/market-ids';
import type { BatchWrite } from '../../src/matching/payloads';
import { UNCONFIGURED_CHAIN } from '../../src/settlement/settlement-port';
import { useTestDatabase } from '../helpers/test-database';
import { logger, newMarket, orderRecord, pendingFill, RecordingPublisher, SHARE, store, wallet } from './market-harness';

const TWO = (2n * SHARE).toString();
const FOUR = (4n * SHARE).toString();

describe('an order row written by a market step and by settlement at once', () => {
  const { db } = useTestDatabase('row_writers');

  async function setup() {
    const collections = matchingCollections(db());
    await ensureMatchingIndexes(collections);
    const publisher = new RecordingPublisher();
    const market = newMarket();
    const settlement = createSettlementActivities({ collections, publisher, logger, chain: UNCONFIGURED_CHAIN });
    const steps = createMarketActivities({ collections, publisher, logger });
    const tradeId = (n: number) => `${marketKeyOf(market)}:${n}`;
    return { collections, publisher, market, settlement, steps, tradeId };
  }

  /** A maker's SELL of 4 shares at 0.60, stored as the step that matched `filled` of it left it (settlement not yet seen). */
  async function storeMaker(market: MarketRef, set: Partial<StoredOrder>): Promise<string> {
    const [record] = await store(db(), [orderRecord(market, { wallet: wallet(), side: 'SELL', price: 60, size: '4' })]);
    await matchingCollections(db()).orders.updateOne({ _id: record.order_hash }, { $set: { handoff: 'ACCEPTED', ...set } });
    return record.order_hash;
  }

  /** Runs `between` right before the next bulk write of the orders collection, then the write itself. */
  function beforeNextOrdersWrite(collections: ReturnType<typeof matchingCollections>, between: () => Promise<unknown>): void {
    const original = collections.orders.bulkWrite.bind(collections.orders);
    jest.spyOn(collections.orders, 'bulkWrite').mockImplementationOnce(async (...args: Parameters<typeof original>) => {
      await between();
      return original(...args);
    });
  }

  test('when a step cancels the order between settlement\'s read and write, then it stays CANCELLED and reserves nothing', async () => {
    const { collections, market, settlement, tradeId } = await setup();
    const maker = await storeMaker(market, {
      status: 'PARTIALLY_FILLED', remaining_units: TWO, filled_units: TWO, applied_seq: 5, reserved_units: FOUR, fill_ids: [fillIdOf(tradeId(1), 'maker')],
    });
    await collections.fills.insertOne({ ...pendingFill(market, tradeId(1), 'maker', { at: new Date(), orderHash: maker }), settlement_status: 'CONFIRMED' });
    // The cancel's step, as it writes having read the row before settlement: 2 shares unsettled.
    beforeNextOrdersWrite(collections, () => collections.orders.updateOne({ _id: maker }, {
      $set: { status: 'CANCELLED', remaining_units: '0', applied_seq: 6, reserved_units: TWO, status_reason: 'USER_CANCEL' },
    }));

    await settlement.finishOrders({ tradeIds: [tradeId(1)], failed: false });

    const row = await collections.orders.findOne({ _id: maker });
    expect(row).toMatchObject({ status: 'CANCELLED', applied_seq: 6, settled_units: TWO, reserved_units: '0', remaining_units: '0' });
  });

  test('when settlement confirms a fill between a cancel step\'s read and write, then the cancelled order reserves nothing', async () => {
    const { collections, market, steps, tradeId } = await setup();
    const maker = await storeMaker(market, {
      status: 'PARTIALLY_FILLED', remaining_units: TWO, filled_units: TWO, applied_seq: 5, reserved_units: FOUR, fill_ids: [fillIdOf(tradeId(1), 'maker')],
    });
    // Settlement's finish of fill 1, as it writes having read the row before the step.
    beforeNextOrdersWrite(collections, () => collections.orders.updateOne({ _id: maker }, { $set: { settled_units: TWO, reserved_units: TWO } }));
    const cancel: BatchWrite = {
      market, decimals: 18, at: Date.now(), direct: [], trades: [], book: [], ticker: null, counters: { seq: 6, bookSeq: 0, tradeSeq: 1, arrival: 1 },
      orders: [{ hash: maker, seq: 6, status: 'CANCELLED', remaining: '0', filled: TWO, placed: false, arrival: null, reason: 'USER' }],
    };

    await steps.applyMatchBatch(cancel);

    const row = await collections.orders.findOne({ _id: maker });
    expect(row).toMatchObject({ status: 'CANCELLED', applied_seq: 6, settled_units: TWO, reserved_units: '0' });
    // A retry of the same step finds it written and changes nothing.
    await steps.applyMatchBatch(cancel);
    expect(await collections.orders.findOne({ _id: maker })).toMatchObject({ status: 'CANCELLED', applied_seq: 6, settled_units: TWO, reserved_units: '0' });
  });

  test('when a BUY with a fee rate rests, is half matched and half settled, then each writer keeps its reservation at collateral plus the most fee it can owe, as placement reserved it', async () => {
    const { collections, market, settlement, steps, tradeId } = await setup();
    // BUY 4 at 0.60 with 100 bps: 2.4 collateral and at most 4 x 0.5 x 1% = 0.02 fee.
    const [buy] = await store(db(), [orderRecord(market, { wallet: wallet(), side: 'BUY', price: 60, size: '4', feeRateBps: 100 })]);
    const fee = (shares: bigint) => (shares * SHARE * 50n * 100n) / 1_000_000n;
    const need = (shares: bigint) => (shares * SHARE * 60n) / 100n + fee(shares);
    expect(buy.reserved_units).toBe(need(4n).toString()); // as order entry reserves it

    const step = (seq: number, o: Partial<BatchWrite['orders'][number]>): BatchWrite => ({
      market, decimals: 18, at: Date.now(), direct: [], trades: [], book: [], ticker: null, counters: { seq, bookSeq: 0, tradeSeq: 1, arrival: 1 },
      orders: [{ hash: buy.order_hash, seq, status: 'OPEN', remaining: FOUR, filled: '0', placed: true, arrival: 1, reason: null, ...o }],
    });
    await steps.applyMatchBatch(step(1, {}));
    expect(await collections.orders.findOne({ _id: buy.order_hash })).toMatchObject({ status: 'OPEN', reserved_units: need(4n).toString() });
    // Half matched (2 resting, 2 unsettled): still the whole reserve.
    await steps.applyMatchBatch(step(2, { status: 'PARTIALLY_FILLED', remaining: TWO, filled: TWO, placed: false, arrival: 1 }));
    await collections.orders.updateOne({ _id: buy.order_hash }, { $set: { fill_ids: [fillIdOf(tradeId(1), 'taker')] } });
    expect(await collections.orders.findOne({ _id: buy.order_hash })).toMatchObject({ reserved_units: need(4n).toString() });
    // Its 2 settle: the resting 2 still hold their collateral and fee.
    await collections.fills.insertOne({ ...pendingFill(market, tradeId(1), 'taker', { at: new Date(), orderHash: buy.order_hash }), settlement_status: 'CONFIRMED' });
    await settlement.finishOrders({ tradeIds: [tradeId(1)], failed: false });
    expect(await collections.orders.findOne({ _id: buy.order_hash })).toMatchObject({ settled_units: TWO, reserved_units: need(2n).toString() });
  });

  test('when settlement\'s finish runs again after an attempt that wrote FILLED and died before publishing, then FILLED is announced', async () => {
    const { collections, publisher, market, settlement, tradeId } = await setup();
    const maker = await storeMaker(market, {
      status: 'MATCHED', remaining_units: '0', filled_units: TWO, applied_seq: 7, reserved_units: TWO, fill_ids: [fillIdOf(tradeId(1), 'maker')],
    });
    await collections.fills.insertOne({ ...pendingFill(market, tradeId(1), 'maker', { at: new Date(), orderHash: maker }), settlement_status: 'CONFIRMED' });
    await settlement.finishOrders({ tradeIds: [tradeId(1)], failed: false });
    expect(await collections.orders.findOne({ _id: maker })).toMatchObject({ status: 'FILLED' });
    publisher.events.length = 0; // the lost attempt's events never left

    await settlement.finishOrders({ tradeIds: [tradeId(1)], failed: false }); // the activity's retry

    const said = publisher.events.flatMap((e) => (e.channel === 'user' && e.payload.type === 'order' ? [e.payload.order.status] : []));
    expect(said).toEqual(['FILLED']);
  });

  test('when a MATCHED order\'s last fill confirms after an earlier fill of it failed for good, then it ends MATCH_FAILED', async () => {
    const { collections, publisher, market, settlement, tradeId } = await setup();
    const maker = await storeMaker(market, {
      status: 'MATCHED', remaining_units: '0', filled_units: FOUR, applied_seq: 7, reserved_units: TWO,
      settled_units: TWO, fill_ids: [fillIdOf(tradeId(1), 'maker'), fillIdOf(tradeId(2), 'maker')],
    });
    const at = new Date();
    await collections.fills.insertMany([
      { ...pendingFill(market, tradeId(1), 'maker', { at, orderHash: maker }), settlement_status: 'FAILED' },
      { ...pendingFill(market, tradeId(2), 'maker', { at, orderHash: maker }), settlement_status: 'CONFIRMED' },
    ]);

    await settlement.finishOrders({ tradeIds: [tradeId(2)], failed: false });

    expect(await collections.orders.findOne({ _id: maker })).toMatchObject({ status: 'MATCH_FAILED', settled_units: FOUR, reserved_units: '0' });
    const said = publisher.events.flatMap((e) => (e.channel === 'user' && e.payload.type === 'order' ? [e.payload.order.status] : []));
    expect(said).toEqual(['MATCH_FAILED']);
  });
});
