import { temporal } from '@temporalio/proto';
import { cancelOrdersUpdate, marketDepthQuery, marketViewQuery, MAX_CANCEL_HASHES } from '../../workflows/definitions';
import { marketWorkflowId } from '../../src/matching/market-ids';
import { MAX_PLACE_BATCH_WIDE } from '../../workflows/market/limits';
import { MAX_MAKERS_PER_TAKER } from '../../src/engine';
import type { MarketRecord } from '../../src/db/models';
import { createMarketMatcherClient } from '../../src/temporal/market-matcher.client';
import { createWorkflowMarketStatusChanger } from '../../src/temporal/workflow-status-changer';
import { useMarketWorkflowStack } from '../helpers/market-workflow-stack';
import { eventually } from '../helpers/eventually';
import { saveHistory, insertMarket, newMarket, persist, SHARE, wallet } from './market-harness';

describe('market workflow', () => {
  const stack = useMarketWorkflowStack('market');
  const { db, order, taskQueue } = stack;

  test('when a crossing buy meets a resting sell, then orders, fills, trade, book and ticker are written once and published', async () => {
    stack.h.chain.hold = true;
    const market = newMarket();
    await insertMarket(db(), market);
    const [alice, bob] = [wallet(), wallet()];
    const [sell] = await persist(db(), market, [{ wallet: alice, side: 'SELL', price: 60, size: '10' }]);
    await stack.matcher.submit(market, [sell.order_hash]);
    await eventually('sell on the book', async () => (await order(sell.order_hash))?.book_added_at, { timeoutMs: 20_000 });
    const [buy] = await persist(db(), market, [{ wallet: bob, side: 'BUY', price: 65, size: '4' }]);
    await stack.matcher.submit(market, [buy.order_hash]);
    const b = await eventually('buy matched', async () => {
      const o = await order(buy.order_hash);
      return o?.status === 'MATCHED' ? o : null;
    }, { timeoutMs: 20_000 });
    expect(b).toMatchObject({ remaining_size: '0', handoff: 'ACCEPTED', filled_units: (4n * SHARE).toString() });
    // The market's rows (levels, ticker) are written beside the orders and may land after them: wait for the ticker.
    await eventually('ticker', async () => (await stack.h.collections.tickers.findOne({ condition_id: market.condition_id }))?.last_price, { timeoutMs: 20_000 });
    expect(b.book_added_at).toBeInstanceOf(Date);
    // Both were taken by their steps: their hand-off markers are gone (the sweeper reads only lost hand-offs).
    await eventually('markers dropped', async () => (await stack.h.collections.handoffs.countDocuments({ _id: { $in: [sell.order_hash, buy.order_hash] } })) === 0, { timeoutMs: 20_000 });
    const s = await order(sell.order_hash);
    expect(s).toMatchObject({ status: 'PARTIALLY_FILLED', remaining_size: '6', remaining_units: (6n * SHARE).toString() });

    const fills = await stack.h.collections.fills.find({ condition_id: market.condition_id }).sort({ role: 1 }).toArray();
    expect(fills.map((f) => [f.role, f.order_hash, f.side, f.price, f.size, f.settlement_status, f.tx_hash])).toEqual([
      ['maker', sell.order_hash, 'SELL', '0.6', '4', 'PENDING', ''],
      ['taker', buy.order_hash, 'BUY', '0.6', '4', 'PENDING', ''],
    ]);
    // The public trade row is written when the trade settles; the taker fill carries its YES price.
    expect(await stack.h.collections.trades.countDocuments({ condition_id: market.condition_id })).toBe(0);
    expect(fills.map((f) => f.trade_price)).toEqual([undefined, '0.6']);
    const levels = await stack.h.collections.bookLevels.find({ condition_id: market.condition_id, remaining: { $ne: '0' } }).toArray();
    expect(levels.map((l) => [l.side, l.price, l.remaining])).toEqual([['ASK', '0.6', (6n * SHARE).toString()]]);
    const ticker = await stack.h.collections.tickers.findOne({ condition_id: market.condition_id });
    expect(ticker).toMatchObject({ best_bid: null, best_ask: '0.6', last_price: '0.6' });
    const state = await stack.h.collections.bookStates.findOne({ condition_id: market.condition_id });
    expect(state?.seq).toBe(2);

    const mine = stack.h.publisher.events.filter((e) => 'condition_id' in e && e.condition_id === market.condition_id);
    const deltas = mine.filter((e) => e.channel === 'book').map((e) => e.payload as { seq: number });
    expect(deltas.map((d) => d.seq)).toEqual([1, 2]);
    // The public print waits for settlement (REST lists settled prints only); the ticker moved at once.
    expect(mine.filter((e) => e.channel === 'trades')).toHaveLength(0);
    const userOrders = stack.h.publisher.events.filter((e) => e.channel === 'user' && e.payload.type === 'order' && (e.payload.order.order_hash === buy.order_hash));
    expect(userOrders.map((e) => (e.payload as { order: { status: string } }).order.status)).toContain('MATCHED');
    // Order entry's hold levels: each matched order's reserved_units as the step wrote it.
    const levelsOf = (hash: string) => stack.h.publisher.holds.filter((l) => l.order_hash === hash).map((l) => l.reserved_units);
    expect(levelsOf(buy.order_hash)).toEqual([b.reserved_units]);
    expect(levelsOf(sell.order_hash)).toEqual([s?.reserved_units]);

    // Settlement: released receipts confirm the fills; the fully matched buy becomes FILLED.
    stack.h.chain.hold = false;
    await eventually('buy FILLED', async () => (await order(buy.order_hash))?.status === 'FILLED', { timeoutMs: 20_000 });
    const settled = await stack.h.collections.fills.find({ condition_id: market.condition_id }).toArray();
    expect(settled.every((f) => f.settlement_status === 'CONFIRMED' && f.tx_hash.startsWith('0x'))).toBe(true);
    expect((await order(sell.order_hash))?.status).toBe('PARTIALLY_FILLED');
    expect((await order(buy.order_hash))?.reserved_units).toBe('0');
    // Settlement publishes the levels it wrote: the buy's hold goes to 0, the sell's to what still rests.
    expect(levelsOf(buy.order_hash).at(-1)).toBe('0');
    expect(levelsOf(sell.order_hash).at(-1)).toBe((await order(sell.order_hash))?.reserved_units);
    // Settled: one print, as REST shows it (YES price, size in shares, match time).
    const prints = stack.h.publisher.events.filter((e) => e.channel === 'trades' && e.condition_id === market.condition_id).map((e) => e.payload);
    expect(prints).toEqual([{
      trade_id: fills[0].trade_id, condition_id: market.condition_id, chain_id: market.chain_id, price: '0.6', size: '4',
      created_at: fills[0].created_at.toISOString(),
    }]);
    // The trade row, written as it settled, is what REST lists.
    const trades = await stack.h.collections.trades.find({ condition_id: market.condition_id }).toArray();
    expect(trades).toEqual([expect.objectContaining({
      _id: fills[0].trade_id, trade_id: fills[0].trade_id, price: '0.6', size: (4n * SHARE).toString(), settlement_status: 'CONFIRMED', created_at: fills[0].created_at,
    })]);

    await saveHistory(stack.h, marketWorkflowId(market), 'market-match.json');
  });

  test('when BUY NO meets BUY YES, then it is a MINT at the maker price in YES terms', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [no, yes] = await persist(db(), market, [
      { wallet: wallet(), side: 'BUY', outcome: 0, price: 40, size: '2' },
      { wallet: wallet(), side: 'BUY', outcome: 1, price: 61, size: '2' },
    ]);
    await stack.matcher.submit(market, [no.order_hash, yes.order_hash]);
    await eventually('match', async () => (await order(yes.order_hash))?.status !== 'OPEN', { timeoutMs: 20_000 });
    const fills = await stack.h.collections.fills.find({ condition_id: market.condition_id }).toArray();
    expect(fills.map((f) => [f.role, f.outcome, f.price, f.kind]).sort()).toEqual([['maker', 0, '0.4', 'MINT'], ['taker', 1, '0.6', 'MINT']]);
  });

  test('when cancels arrive, then each hash gets exactly one answer with the decisions codes', async () => {
    stack.h.chain.hold = true;
    const market = newMarket();
    await insertMarket(db(), market);
    const [alice, bob] = [wallet(), wallet()];
    const [resting, foreign, filled, cancelled] = await persist(db(), market, [
      { wallet: alice, side: 'BUY', price: 30, size: '1' },
      { wallet: bob, side: 'BUY', price: 31, size: '1' },
      { wallet: alice, side: 'SELL', price: 50, size: '1' },
      { wallet: alice, side: 'BUY', price: 20, size: '1' },
    ]);
    const [taker] = await persist(db(), market, [{ wallet: bob, side: 'BUY', price: 50, size: '1' }]);
    await stack.matcher.submit(market, [resting.order_hash, foreign.order_hash, filled.order_hash, cancelled.order_hash]);
    await stack.matcher.submit(market, [taker.order_hash]);
    await eventually('filled', async () => (await order(taker.order_hash))?.status === 'MATCHED', { timeoutMs: 20_000 });
    expect(await stack.matcher.cancel(market, alice, [cancelled.order_hash])).toEqual({ cancelled: [cancelled.order_hash], not_cancelled: [] });

    // Persisted but never handed over: cancelled here, and its late hand-off is skipped.
    const [pending] = await persist(db(), market, [{ wallet: alice, side: 'SELL', price: 31, size: '1' }]);
    const unknown = `0x${'ab'.repeat(32)}`;
    const outcome = await stack.matcher.cancel(market, alice, [resting.order_hash, foreign.order_hash, filled.order_hash, cancelled.order_hash, unknown, pending.order_hash]);
    expect(outcome.cancelled).toEqual([resting.order_hash, pending.order_hash]);
    expect(Object.fromEntries(outcome.not_cancelled.map((n) => [n.order_hash, n.error.code]))).toEqual({
      [foreign.order_hash]: 'ORDER_NOT_FOUND',
      [filled.order_hash]: 'ORDER_ALREADY_FILLED',
      [cancelled.order_hash]: 'ORDER_NOT_OPEN',
      [unknown]: 'ORDER_NOT_FOUND',
    });
    await stack.matcher.submit(market, [pending.order_hash]);
    // An update is served after every signal received before it: a barrier for the late hand-off.
    await stack.matcher.cancel(market, alice, [unknown]);
    expect(await stack.h.collections.fills.countDocuments({ order_hash: pending.order_hash })).toBe(0);
    const view = await stack.h.client.workflow.getHandle(marketWorkflowId(market)).query(marketViewQuery);
    expect(view.resting).toBe(1); // only bob's 0.31 bid: the cancelled pending ask never crossed it
    expect(await order(pending.order_hash)).toMatchObject({ status: 'CANCELLED', status_reason: 'USER_CANCEL' });
    expect(await order(foreign.order_hash)).toMatchObject({ status: 'OPEN' });
    expect(await order(resting.order_hash)).toMatchObject({ status: 'CANCELLED', remaining_size: '1', reserved_units: '0' });
    await saveHistory(stack.h, marketWorkflowId(market), 'market-cancel.json');
  });

  test('when a cancel names more hashes than one update may carry, then the client sends them in several and every order gets its answer', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const maker = wallet();
    // A market maker's book of 1,001 orders, persisted (cancels take orders not handed over too).
    const many = await persist(db(), market, Array.from({ length: MAX_CANCEL_HASHES + 1 }, (_, i) => ({ wallet: maker, side: 'BUY' as const, price: 1 + (i % 40), size: '1' })));
    const outcome = await stack.matcher.cancel(market, maker, many.map((o) => o.order_hash));
    expect(outcome.not_cancelled).toEqual([]);
    expect(outcome.cancelled.sort()).toEqual(many.map((o) => o.order_hash).sort());
    expect(await stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, status: 'CANCELLED' })).toBe(MAX_CANCEL_HASHES + 1);
    const updates = (await stack.h.client.workflow.getHandle(marketWorkflowId(market)).fetchHistory()).events!
      .filter((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED);
    expect(updates.map((e) => (JSON.parse(Buffer.from(e.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.args!.payloads![0].data!).toString()) as { hashes: string[] }).hashes.length))
      .toEqual([MAX_CANCEL_HASHES, 1]);
  }, 60_000);

  test('when a cancel carries the time it was asked at, then it is decided at that time, never before the market\'s last write', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const alice = wallet();
    const expiration = Math.floor(Date.now() / 1000) + 600;
    const [gtd, plain] = await persist(db(), market, [
      { wallet: alice, side: 'BUY', price: 30, size: '1', expiration },
      { wallet: alice, side: 'BUY', price: 31, size: '1' },
    ]);
    await stack.matcher.submit(market, [gtd.order_hash, plain.order_hash]);
    await eventually('both resting', async () => (await order(plain.order_hash))?.handoff === 'ACCEPTED', { timeoutMs: 20_000 });
    const handle = stack.h.client.workflow.getHandle(marketWorkflowId(market));
    const cancelAt = (hash: string, requestedAt: number) => handle.executeUpdate(cancelOrdersUpdate, { args: [{ wallet: alice, hashes: [hash], requested_at: requestedAt }] });

    // Asked for after the GTD order's expiration (a request that waited in a queue): it had expired.
    expect(await cancelAt(gtd.order_hash, (expiration + 1) * 1000)).toEqual({
      cancelled: [], not_cancelled: [{ order_hash: gtd.order_hash, error: { code: 'ORDER_NOT_OPEN', message: 'Order has expired' } }],
    });
    expect(await order(gtd.order_hash)).toMatchObject({ status: 'EXPIRED' });

    // Asked for "before" the order rested (a skewed clock): decided no earlier than the last write.
    expect(await cancelAt(plain.order_hash, 0)).toEqual({ cancelled: [plain.order_hash], not_cancelled: [] });
    const ended = await order(plain.order_hash);
    expect(ended).toMatchObject({ status: 'CANCELLED', status_reason: 'USER_CANCEL' });
    expect(ended!.updated_at.getTime()).toBeGreaterThanOrEqual(new Date(ended!.book_added_at!).getTime());
  });

  test('when the run continues as new, then a cancel asked for "before" its order rested is still decided no earlier than the previous run\'s last write', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const alice = wallet();
    const rolling = createMarketMatcherClient(stack.h.client, taskQueue, { workflowInput: { historyLimit: 40, rollWaitMs: 500 } });
    const [first] = await persist(db(), market, [{ wallet: alice, side: 'BUY', price: 30, size: '1' }]);
    await rolling.submit(market, [first.order_hash]);
    await eventually('resting', async () => (await order(first.order_hash))?.handoff === 'ACCEPTED', { timeoutMs: 20_000 });
    const handle = stack.h.client.workflow.getHandle(marketWorkflowId(market));
    const firstRun = (await handle.describe()).runId;
    // Cancels of unknown orders write nothing but fill the history until the run continues as new.
    for (let i = 0; (await handle.describe()).runId === firstRun; i++) {
      if (i > 40) throw new Error('the run never continued as new');
      await handle.executeUpdate(cancelOrdersUpdate, { args: [{ wallet: alice, hashes: [`0x${'0'.repeat(62)}${i.toString(16).padStart(2, '0')}`] }] });
    }
    // The new run has written nothing: only the carried time keeps the cancel after the order's rest.
    const newRun = stack.h.client.workflow.getHandle(marketWorkflowId(market));
    expect(await newRun.executeUpdate(cancelOrdersUpdate, { args: [{ wallet: alice, hashes: [first.order_hash], requested_at: 0 }] })).toEqual({ cancelled: [first.order_hash], not_cancelled: [] });
    const ended = await order(first.order_hash);
    expect(ended!.updated_at.getTime()).toBeGreaterThanOrEqual(new Date(ended!.book_added_at!).getTime());
  }, 90_000);

  test('when the market is paused, closed and resolved, then placement is refused and resting orders are cancelled', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [a] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 40, size: '1' }]);
    await stack.matcher.submit(market, [a.order_hash]);
    await eventually('resting', async () => (await order(a.order_hash))?.book_added_at, { timeoutMs: 20_000 });
    await stack.matcher.setStatus(market, { status: 'PAUSED', actor: 'ops' });
    const [late] = await persist(db(), market, [{ wallet: wallet(), side: 'SELL', price: 40, size: '1' }]);
    await stack.matcher.submit(market, [late.order_hash]);
    await eventually('refused', async () => (await order(late.order_hash))?.status === 'CANCELLED', { timeoutMs: 20_000 });
    expect(await order(late.order_hash)).toMatchObject({ status_reason: 'MARKET_NOT_ACTIVE', handoff: 'ACCEPTED' });
    expect((await order(a.order_hash))?.status).toBe('OPEN');

    const closed = await stack.matcher.changeStatus(market, { status: 'CLOSED', actor: 'ops' });
    expect(closed).toEqual({ status: 'CLOSED', resolution_outcome: null, cancelled: 1 });
    expect(await order(a.order_hash)).toMatchObject({ status: 'CANCELLED', status_reason: 'MARKET_CLOSED' });
    expect(await stack.h.collections.bookLevels.countDocuments({ condition_id: market.condition_id, remaining: { $ne: '0' } })).toBe(0);

    await stack.matcher.setStatus(market, { status: 'RESOLVED', resolution_outcome: 1, actor: 'ops' });
    expect(await stack.h.collections.markets.findOne({ condition_id: market.condition_id })).toMatchObject({ status: 'RESOLVED', resolution_outcome: 1 });
    const audit = await stack.h.collections.statusChanges.find({ condition_id: market.condition_id }).sort({ at: 1 }).toArray();
    const id = (v: number) => `${market.chain_id}:${market.condition_id}:v${v}`;
    expect(audit.map((r) => [r.change_id, r.from_status, r.to_status, r.via])).toEqual([
      [id(1), 'OPEN', 'PAUSED', 'market-workflow'], [id(2), 'PAUSED', 'CLOSED', 'market-workflow'], [id(3), 'CLOSED', 'RESOLVED', 'market-workflow'],
    ]);
    expect((await stack.h.collections.markets.findOne({ condition_id: market.condition_id }))?.status_version).toBe(3);
    await expect(stack.matcher.setStatus(market, { status: 'OPEN', actor: 'ops' })).rejects.toThrow();
    await saveHistory(stack.h, marketWorkflowId(market), 'market-status.json');
  });

  test('when the admin route changes status through the workflow-backed changer, then a stale `from` is refused and the market comes back', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const changer = createWorkflowMarketStatusChanger(stack.matcher, async (chainId, conditionId) =>
      (await stack.h.collections.markets.findOne({ chain_id: chainId, condition_id: conditionId })) as unknown as MarketRecord | null);
    const base = { chainId: market.chain_id, conditionId: market.condition_id, resolutionOutcome: null, actor: 'ops', via: 'admin-api' };
    const paused = await changer.changeStatus({ ...base, from: 'OPEN', to: 'PAUSED' });
    expect(paused).toMatchObject({ status: 'PAUSED', status_version: 1 });
    await expect(changer.changeStatus({ ...base, from: 'OPEN', to: 'CLOSED' })).rejects.toHaveProperty('code', 'VALIDATION_ERROR');
    expect((await stack.h.collections.markets.findOne({ condition_id: market.condition_id }))?.status).toBe('PAUSED');
  });

  test('when 450 orders arrive in one hand-off, then one step takes MAX_PLACE_BATCH_WIDE of them and the next the rest', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    // Resting bids only (no trades): each step stamps its orders with its own book_added_at.
    const orders = await persist(db(), market, Array.from({ length: 450 }, (_, i) => ({ wallet: wallet(), side: 'BUY' as const, price: 10 + (i % 30), size: '1' })));
    await stack.matcher.submit(market, orders.map((o) => o.order_hash));
    await eventually('all placed', async () => (await stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === 450, { timeoutMs: 60_000 });
    const rows = await stack.h.collections.orders.find({ condition_id: market.condition_id }, { projection: { book_added_at: 1 } }).toArray();
    const perStep = new Map<number, number>();
    for (const r of rows) perStep.set(r.book_added_at!.getTime(), (perStep.get(r.book_added_at!.getTime()) ?? 0) + 1);
    expect([...perStep.values()].sort((a, b) => b - a)).toEqual([MAX_PLACE_BATCH_WIDE, 450 - MAX_PLACE_BATCH_WIDE]);
    await saveHistory(stack.h, marketWorkflowId(market), 'market-wide-batch.json');
  }, 90_000);

  test('when a buy crosses more resting sells than one settlement may carry, then it trades with MAX_MAKERS_PER_TAKER of them, its remainder is cancelled MAX_MAKERS_REACHED, and the match settles in one group', async () => {
    stack.h.chain.hold = false; // an earlier test may have left receipts held
    const market = newMarket();
    await insertMarket(db(), market);
    const sellers = [wallet(), wallet(), wallet()];
    const n = MAX_MAKERS_PER_TAKER + 2;
    const sells = await persist(db(), market, Array.from({ length: n }, (_, i) => ({ wallet: sellers[i % 3], side: 'SELL' as const, price: 50, size: '1' })));
    await stack.matcher.submit(market, sells.map((o) => o.order_hash));
    await eventually('sells resting', async () => (await stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, status: 'OPEN', handoff: 'ACCEPTED' })) === n, { timeoutMs: 30_000 });
    const [buy] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 50, size: String(n) }]);
    await stack.matcher.submit(market, [buy.order_hash]);
    const b = await eventually('buy ended', async () => {
      const o = await order(buy.order_hash);
      return o?.status === 'CANCELLED' ? o : null;
    }, { timeoutMs: 30_000 });
    expect(b).toMatchObject({ status_reason: 'MAX_MAKERS_REACHED', filled_units: (BigInt(MAX_MAKERS_PER_TAKER) * SHARE).toString(), remaining_size: '2' });
    // The two youngest sells were not reached: they still rest whole, and the book does not cross.
    const open = await stack.h.collections.orders.find({ condition_id: market.condition_id, side: 'SELL', status: 'OPEN' }).toArray();
    expect(open.map((o) => o.order_hash).sort()).toEqual(sells.slice(MAX_MAKERS_PER_TAKER).map((o) => o.order_hash).sort());
    const view = await stack.h.client.workflow.getHandle(marketWorkflowId(market)).query(marketViewQuery);
    expect(view.resting).toBe(2);
    // One match for the taker: all its fills settle in one transaction, the buy's hold goes to 0.
    await eventually('settled', async () => (await stack.h.collections.fills.countDocuments({ order_hash: buy.order_hash, settlement_status: 'CONFIRMED' })) === MAX_MAKERS_PER_TAKER, { timeoutMs: 30_000 });
    const fills = await stack.h.collections.fills.find({ order_hash: buy.order_hash }).toArray();
    expect(new Set(fills.map((f) => f.tx_hash)).size).toBe(1);
    await eventually('hold released', async () => (await order(buy.order_hash))?.reserved_units === '0', { timeoutMs: 20_000 });
    expect((await order(buy.order_hash))?.status).toBe('CANCELLED');
    await saveHistory(stack.h, marketWorkflowId(market), 'market-makers-cap.json');
  }, 90_000);

  test('when a persisted order is malformed or breaks the engine rules, then it ends MATCH_FAILED and the market keeps going', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [garbled, drifted, fine] = await persist(db(), market, [
      { wallet: wallet(), side: 'BUY', price: 40, size: '1' },
      { wallet: wallet(), side: 'BUY', price: 41, size: '1' },
      { wallet: wallet(), side: 'BUY', price: 42, size: '1' },
    ]);
    await stack.h.collections.orders.updateOne({ order_hash: garbled.order_hash }, { $set: { size_units: 'not-a-number' } });
    await stack.h.collections.orders.updateOne({ order_hash: drifted.order_hash }, { $set: { maker_amount: '1' } });
    await stack.matcher.submit(market, [garbled.order_hash, drifted.order_hash, fine.order_hash]);
    await eventually('all handled', async () => (await stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === 3, { timeoutMs: 20_000 });
    expect(await order(garbled.order_hash)).toMatchObject({ status: 'MATCH_FAILED', status_reason: 'INVALID_ORDER', handoff: 'ACCEPTED' });
    expect(await order(drifted.order_hash)).toMatchObject({ status: 'MATCH_FAILED', status_reason: 'INVALID_ORDER' });
    expect((await order(fine.order_hash))?.status).toBe('OPEN');
  });

  test('when a GTD order reaches its expiration, then the workflow timer expires it', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const expiration = Math.floor(Date.now() / 1000) + 3;
    const [gtd, plain] = await persist(db(), market, [
      { wallet: wallet(), side: 'BUY', price: 40, size: '1', expiration },
      { wallet: wallet(), side: 'BUY', price: 41, size: '1' },
    ]);
    await stack.matcher.submit(market, [gtd.order_hash, plain.order_hash]);
    await eventually('resting', async () => (await order(gtd.order_hash))?.book_added_at, { timeoutMs: 20_000 });
    expect((await order(gtd.order_hash))?.status).toBe('OPEN');
    await eventually('expired', async () => (await order(gtd.order_hash))?.status === 'EXPIRED', { timeoutMs: 15_000 });
    expect(Date.now() / 1000).toBeGreaterThanOrEqual(expiration);
    expect((await order(plain.order_hash))?.status).toBe('OPEN');
    const depth = await stack.h.client.workflow.getHandle(marketWorkflowId(market)).query(marketDepthQuery, 10);
    expect(depth).toMatchObject({ ready: true });
    expect(depth.bids.map((l) => l.price)).toEqual([41]);
    await saveHistory(stack.h, marketWorkflowId(market), 'market-expiry.json');
  });

  test('when a market workflow starts, then its workflow tasks may take 30 s (a worker taking it over replays the whole run in one)', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [o] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 20, size: '1' }]);
    await stack.matcher.submit(market, [o.order_hash]);
    const described = await stack.h.client.workflow.getHandle(marketWorkflowId(market)).describe();
    expect(Number(described.raw.executionConfig?.defaultWorkflowTaskTimeout?.seconds)).toBe(30);
  });

  test('when hashes the run took come again, then no step loads them again, and a new order among them is placed', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const handle = stack.h.client.workflow.getHandle(marketWorkflowId(market));
    const [first, second] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 20, size: '1' }, { wallet: wallet(), side: 'BUY', price: 21, size: '1' }]);
    await stack.matcher.submit(market, [first.order_hash]);
    await eventually('the first order accepted', async () => (await order(first.order_hash))?.handoff === 'ACCEPTED');
    const loads = async () => {
      let n = 0;
      for (const e of (await handle.fetchHistory()).events ?? []) {
        const data = e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
        if (data && Buffer.from(data).toString().includes('"activity_type":"loadOrdersForPlacement"')) n += 1;
      }
      return n;
    };
    /** Every signal so far was taken in by a workflow task that completed (so its step, if any, is in the history). */
    const takenIn = async () => {
      const events = (await handle.fetchHistory()).events ?? [];
      let lastCompleted = -1;
      let lastSignal = -1;
      events.forEach((e, i) => {
        if (e.workflowTaskCompletedEventAttributes) lastCompleted = i;
        if (e.workflowExecutionSignaledEventAttributes) lastSignal = i;
      });
      return lastCompleted > lastSignal;
    };
    const before = await loads();
    // Copies, as the sweeper sends for orders a market takes late: one signal each, each taken in on its own.
    for (let i = 0; i < 3; i++) {
      await stack.matcher.submit(market, [first.order_hash]);
      await eventually('the copy taken in', takenIn, { timeoutMs: 20_000 });
    }
    await stack.matcher.submit(market, [first.order_hash, second.order_hash]);
    await eventually('the second order accepted', async () => (await order(second.order_hash))?.handoff === 'ACCEPTED');
    await eventually('nothing queued', async () => (await handle.query(marketViewQuery)).queued === 0);
    // One load, for the new order's step; the copies alone ran none.
    expect((await loads()) - before).toBe(1);
    const view = await handle.query(marketViewQuery);
    expect(view.resting).toBe(2);
    await saveHistory(stack.h, marketWorkflowId(market), 'market-deduped-handoffs.json');
  });

  test('when many submits race, then they are coalesced into few signals and each order is placed once', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const orders = await persist(db(), market, Array.from({ length: 60 }, (_, i) => ({ wallet: wallet(), side: 'BUY' as const, price: 10 + (i % 20), size: '1' })));
    const before = stack.matcher.signalsSent;
    await Promise.all(orders.map((o) => stack.matcher.submit(market, [o.order_hash])));
    // Re-delivery of the same hashes is a no-op.
    await stack.matcher.submit(market, orders.slice(0, 10).map((o) => o.order_hash));
    expect(stack.matcher.signalsSent - before).toBeLessThan(10);
    await eventually('all placed', async () => (await stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === 60, { timeoutMs: 20_000 });
    const view = await eventually('the market view, ready with nothing queued', async () => {
      const v = await stack.h.client.workflow.getHandle(marketWorkflowId(market)).query(marketViewQuery);
      return v.ready && v.queued === 0 ? v : null;
    });
    expect(view.resting).toBe(60);
    expect(view.counters.arrival).toBe(60);
  });

  test('when the market workflow\'s run has ended, then the next submit starts a new run and its order is placed', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [first, second] = await persist(db(), market, [
      { wallet: wallet(), side: 'BUY' as const, price: 20, size: '1' },
      { wallet: wallet(), side: 'BUY' as const, price: 21, size: '1' },
    ]);
    const accepted = (hash: string) => eventually(`${hash} placed`, async () => (await order(hash))?.handoff === 'ACCEPTED', { timeoutMs: 20_000 });
    await stack.matcher.submit(market, [first.order_hash]);
    await accepted(first.order_hash);
    const handle = stack.h.client.workflow.getHandle(marketWorkflowId(market));
    const ended = (await handle.describe()).runId;
    await handle.terminate('test: the run ends');
    // signalWithStart: no signal is lost on a market whose workflow is not running.
    await stack.matcher.submit(market, [second.order_hash]);
    await accepted(second.order_hash);
    const now = await handle.describe();
    expect(now.status.name).toBe('RUNNING');
    expect(now.runId).not.toBe(ended);
  });

  test('when a linger is set, then a stream of submits goes out as one signal per linger window, the first at once', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const orders = await persist(db(), market, Array.from({ length: 5 }, (_, i) => ({ wallet: wallet(), side: 'BUY' as const, price: 20 + i, size: '1' })));
    const lingering = createMarketMatcherClient(stack.h.client, taskQueue, { lingerMs: 3_000 });
    const started = Date.now();
    await lingering.submit(market, [orders[0].order_hash]);
    expect(lingering.signalsSent).toBe(1);
    expect(Date.now() - started).toBeLessThan(3_000);
    // Four more, 100 ms apart, all inside the window of the first signal: they wait for its end and
    // go out together.
    const rest: Promise<void>[] = [];
    for (const o of orders.slice(1)) {
      rest.push(lingering.submit(market, [o.order_hash]));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(lingering.signalsSent).toBe(1);
    await Promise.all(rest);
    expect(lingering.signalsSent).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    await eventually('all placed', async () => (await stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === 5, { timeoutMs: 20_000 });
  });

  test('when orders of the market are announced, then a submit waits for them and goes out with them as one signal, at most the gather bound', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const orders = await persist(db(), market, Array.from({ length: 4 }, (_, i) => ({ wallet: wallet(), side: 'BUY' as const, price: 30 + i, size: '1' })));
    const gathering = createMarketMatcherClient(stack.h.client, taskQueue, { gatherMs: 10_000 });
    const started = Date.now();
    const [first, second] = [gathering.announce(market), gathering.announce(market)];
    const sent = [gathering.submit(market, [orders[0].order_hash])];
    await new Promise((r) => setTimeout(r, 300));
    first();
    first(); // withdrawing twice counts once
    sent.push(gathering.submit(market, [orders[1].order_hash]));
    await new Promise((r) => setTimeout(r, 300));
    expect(gathering.signalsSent).toBe(0);
    second();
    sent.push(gathering.submit(market, [orders[2].order_hash]));
    await Promise.all(sent);
    expect(gathering.signalsSent).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    // An announcement that is never withdrawn holds a submit for the bound, not longer.
    const bounded = createMarketMatcherClient(stack.h.client, taskQueue, { gatherMs: 500 });
    bounded.announce(market);
    const waitedFrom = Date.now();
    await bounded.submit(market, [orders[3].order_hash]);
    expect(bounded.signalsSent).toBe(1);
    expect(Date.now() - waitedFrom).toBeGreaterThanOrEqual(450);
    await eventually('all placed', async () => (await stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' })) === 4, { timeoutMs: 20_000 });
  });

  test('when a market\'s hand-offs are held, then submits wait without a signal and go out together when the hold is released or runs out', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const orders = await persist(db(), market, Array.from({ length: 6 }, (_, i) => ({ wallet: wallet(), side: 'BUY' as const, price: 10 + i, size: '1' })));
    const accepted = () => stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, handoff: 'ACCEPTED' });
    const before = stack.matcher.signalsSent;
    stack.matcher.hold(market, 60_000);
    let answered = 0;
    const first = Promise.all(orders.slice(0, 3).map((o) => stack.matcher.submit(market, [o.order_hash]).then(() => { answered += 1; })));
    await new Promise((r) => setTimeout(r, 500));
    expect({ signals: stack.matcher.signalsSent - before, answered, accepted: await accepted() }).toEqual({ signals: 0, answered: 0, accepted: 0 });
    stack.matcher.hold(market, 0);
    await first;
    expect(stack.matcher.signalsSent - before).toBe(1);
    await eventually('released orders placed', async () => (await accepted()) === 3, { timeoutMs: 20_000 });
    // A hold that is never released ends by itself.
    stack.matcher.hold(market, 300);
    const second = stack.matcher.submit(market, orders.slice(3).map((o) => o.order_hash));
    expect(stack.matcher.signalsSent - before).toBe(1);
    await second;
    expect(stack.matcher.signalsSent - before).toBe(2);
    await eventually('orders placed after the hold ran out', async () => (await accepted()) === 6, { timeoutMs: 20_000 });
  });
});
