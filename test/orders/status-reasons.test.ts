import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marketWorkflowId } from '../../src/matching/market-ids';
import { STATUS_REASON_CODES, statusReasonOf } from '../../src/ports/status-reasons';
import { removeOrdersSignal } from '../../workflows/definitions';
import { useMarketWorkflowStack } from '../helpers/market-workflow-stack';
import { eventually } from '../helpers/eventually';
import { insertMarket, newMarket, persist, wallet } from '../workflows/market-harness';

describe('status_reason: every way an order ends says why', () => {
  const stack = useMarketWorkflowStack('reasons');
  const { db, order } = stack;
  /** The `status_reason` of each `user` order event published for `hash`, with its status, in order. */
  const eventsOf = (hash: string) => stack.h.publisher.events
    .filter((e) => e.channel === 'user' && e.payload.type === 'order' && e.payload.order.order_hash === hash)
    .map((e) => {
      const o = (e.payload as { order: { status: string; status_reason: unknown } }).order;
      return [o.status, o.status_reason];
    });
  const ended = (hash: string, status: string) => eventually(`${hash} ${status}`, async () => {
    const o = await order(hash);
    return o?.status === status ? o : null;
  }, { timeoutMs: 20_000 });
  const resting = (hash: string) => eventually(`${hash} resting`, async () => (await order(hash))?.book_added_at, { timeoutMs: 20_000 });

  test('when the owner cancels, or a caller cancels with its own reason, then each row and its last event carry that code; a live order carries null', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const alice = wallet();
    const [mine, switched, live] = await persist(db(), market, [
      { wallet: alice, side: 'BUY', price: 30, size: '1' },
      { wallet: alice, side: 'BUY', price: 31, size: '1' },
      { wallet: alice, side: 'BUY', price: 32, size: '1' },
    ]);
    await stack.matcher.submit(market, [mine.order_hash, switched.order_hash, live.order_hash]);
    await resting(live.order_hash);
    expect(await stack.matcher.cancel(market, alice, [mine.order_hash])).toMatchObject({ cancelled: [mine.order_hash] });
    expect(await stack.matcher.cancel(market, alice, [switched.order_hash], 'HEARTBEAT_EXPIRED')).toMatchObject({ cancelled: [switched.order_hash] });

    expect(await order(mine.order_hash)).toMatchObject({ status: 'CANCELLED', status_reason: 'USER_CANCEL' });
    expect(await order(switched.order_hash)).toMatchObject({ status: 'CANCELLED', status_reason: 'HEARTBEAT_EXPIRED' });
    expect(await order(live.order_hash)).toMatchObject({ status: 'OPEN', status_reason: null });
    expect(eventsOf(mine.order_hash)).toEqual([['OPEN', null], ['CANCELLED', 'USER_CANCEL']]);
    expect(eventsOf(switched.order_hash).slice(-1)).toEqual([['CANCELLED', 'HEARTBEAT_EXPIRED']]);
  });

  test('when a cancel names a reason outside the list, then the workflow refuses the update', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [o] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 30, size: '1' }]);
    await stack.matcher.submit(market, [o.order_hash]);
    await resting(o.order_hash);
    await expect(stack.matcher.cancel(market, o.wallet, [o.order_hash], 'BECAUSE' as never)).rejects.toThrow();
    expect(await order(o.order_hash)).toMatchObject({ status: 'OPEN', status_reason: null });
  });

  test('when a MARKET order leaves a remainder and a wallet crosses its own resting order, then they end MARKET_REMAINDER and SELF_TRADE; the filled one MATCHED with null', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [alice, bob] = [wallet(), wallet()];
    const [ask, own] = await persist(db(), market, [
      { wallet: alice, side: 'SELL', price: 60, size: '1' },
      { wallet: bob, side: 'SELL', price: 70, size: '1' },
    ]);
    await stack.matcher.submit(market, [ask.order_hash, own.order_hash]);
    await resting(own.order_hash);
    const [market1] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 65, size: '2', type: 'MARKET' }]);
    await stack.matcher.submit(market, [market1.order_hash]);
    expect(await ended(market1.order_hash, 'CANCELLED')).toMatchObject({ status_reason: 'MARKET_REMAINDER', remaining_size: '1' });
    expect(await ended(ask.order_hash, 'MATCHED')).toMatchObject({ status_reason: null });
    // bob's buy at 70 meets bob's own resting ask: the resting one is cancelled, the new one rests.
    const [cross] = await persist(db(), market, [{ wallet: bob, side: 'BUY', price: 70, size: '1' }]);
    await stack.matcher.submit(market, [cross.order_hash]);
    expect(await ended(own.order_hash, 'CANCELLED')).toMatchObject({ status_reason: 'SELF_TRADE' });
    expect(await resting(cross.order_hash)).toBeTruthy();
    expect(eventsOf(own.order_hash).slice(-1)).toEqual([['CANCELLED', 'SELF_TRADE']]);
  });

  test('when a GTD order\'s expiration passes, then it ends EXPIRED with reason EXPIRED', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [gtd] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 40, size: '1', expiration: Math.floor(Date.now() / 1000) + 2 }]);
    await stack.matcher.submit(market, [gtd.order_hash]);
    expect(await ended(gtd.order_hash, 'EXPIRED')).toMatchObject({ status_reason: 'EXPIRED' });
    expect(eventsOf(gtd.order_hash).slice(-1)).toEqual([['EXPIRED', 'EXPIRED']]);
  });

  test('when the chain says a wallet\'s order is void, then a removal ends it with that reason, resting or not handed over yet (the older NONCE_BUMP name reads NONCE_BUMPED)', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [bumped, drained, unplaced] = await persist(db(), market, [
      { wallet: wallet(), side: 'BUY', price: 30, size: '1' },
      { wallet: wallet(), side: 'BUY', price: 31, size: '1' },
      { wallet: wallet(), side: 'BUY', price: 32, size: '1' },
    ]);
    await stack.matcher.submit(market, [bumped.order_hash, drained.order_hash]);
    await resting(drained.order_hash);
    const handle = stack.h.client.workflow.getHandle(marketWorkflowId(market));
    await handle.signal(removeOrdersSignal, { hashes: [bumped.order_hash], reason: 'NONCE_BUMP', at: Date.now() });
    await handle.signal(removeOrdersSignal, { hashes: [drained.order_hash, unplaced.order_hash], reason: 'BALANCE_CHANGED', at: Date.now() });
    expect(await ended(bumped.order_hash, 'CANCELLED')).toMatchObject({ status_reason: 'NONCE_BUMPED' });
    expect(await ended(drained.order_hash, 'CANCELLED')).toMatchObject({ status_reason: 'BALANCE_CHANGED' });
    expect(await ended(unplaced.order_hash, 'CANCELLED')).toMatchObject({ status_reason: 'BALANCE_CHANGED', handoff: 'ACCEPTED' });
  });

  test('when a removal says the orders failed (status MATCH_FAILED), then they end MATCH_FAILED with its reason', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [o] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 30, size: '1' }]);
    await stack.matcher.submit(market, [o.order_hash]);
    await resting(o.order_hash);
    await stack.h.client.workflow.getHandle(marketWorkflowId(market)).signal(removeOrdersSignal, {
      hashes: [o.order_hash], reason: 'BALANCE_CHANGED', status: 'MATCH_FAILED', at: Date.now(),
    });
    expect(await ended(o.order_hash, 'MATCH_FAILED')).toMatchObject({ status_reason: 'BALANCE_CHANGED' });
  });

  test('when a market resolves with orders resting, then they end MARKET_RESOLVED, and an order reaching it afterwards too', async () => {
    const market = newMarket();
    await insertMarket(db(), market);
    const [o] = await persist(db(), market, [{ wallet: wallet(), side: 'BUY', price: 30, size: '1' }]);
    await stack.matcher.submit(market, [o.order_hash]);
    await resting(o.order_hash);
    await stack.matcher.setStatus(market, { status: 'RESOLVED', resolution_outcome: 1, actor: 'ops' });
    expect(await order(o.order_hash)).toMatchObject({ status: 'CANCELLED', status_reason: 'MARKET_RESOLVED' });
    const [late] = await persist(db(), market, [{ wallet: wallet(), side: 'SELL', price: 30, size: '1' }]);
    await stack.matcher.submit(market, [late.order_hash]);
    expect(await ended(late.order_hash, 'CANCELLED')).toMatchObject({ status_reason: 'MARKET_RESOLVED' });
  });
});

describe('status_reason: the one list', () => {
  test('when docs/orders.md lists the reasons, then its table holds exactly the codes of src/orders/status-reasons.ts', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'orders.md'), 'utf8');
    const section = doc.split('## Why an order ended')[1]?.split('\n## ')[0] ?? '';
    const documented = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...STATUS_REASON_CODES].sort());
  });

  test('when a row was written before the field existed, then its reason is read from its cancel_reason, and the statuses that carry none read null', () => {
    expect(statusReasonOf({ status: 'CANCELLED', cancel_reason: 'USER' })).toBe('USER_CANCEL');
    expect(statusReasonOf({ status: 'CANCELLED', cancel_reason: 'NONCE_BUMP' })).toBe('NONCE_BUMPED');
    expect(statusReasonOf({ status: 'CANCELLED', cancel_reason: 'SELF_TRADE' })).toBe('SELF_TRADE');
    expect(statusReasonOf({ status: 'MATCH_FAILED' })).toBe('SETTLEMENT_FAILED');
    expect(statusReasonOf({ status: 'EXPIRED', cancel_reason: null })).toBe('EXPIRED');
    expect(statusReasonOf({ status: 'FILLED', status_reason: null })).toBeNull();
    expect(statusReasonOf({ status: 'MATCHED', cancel_reason: 'USER' })).toBeNull();
    expect(statusReasonOf({ status: 'CANCELLED', status_reason: 'MARKET_RESOLVED', cancel_reason: 'MARKET_CLOSED' })).toBe('MARKET_RESOLVED');
  });
});
