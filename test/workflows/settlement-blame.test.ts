/**
 * A match refused because of one of its orders (leg blame): that order alone fails, with its
 * reason; the other makers rest again at their original place and the taker is matched again,
 * and their new trades settle. With the fake chain: the chain says which order it blames.
 */
import { marketKeyOf, settlementWorkflowId } from '../../src/matching/market-ids';
import { positionRowIdOf } from '../../src/positions/position-rows';
import { eventually } from '../helpers/eventually';
import { useMarketWorkflowStack } from '../helpers/market-workflow-stack';
import { insertMarket, newMarket, persist, saveHistory, wallet } from './market-harness';

const E18 = 10n ** 18n;

describe('settlement blames the failing leg', () => {
  const stack = useMarketWorkflowStack('blame', { settlementRetryDelayMs: 100 });
  const { order } = stack;

  const fillsOf = (hash: string) => stack.h.collections.fills.find({ order_hash: hash }).sort({ trade_id: 1 }).toArray();

  /** A, C, D rest BUY YES 10 @0.50 in that order; B's BUY NO 20 @0.50 takes A and C in one match. */
  async function attack() {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const [a, c, d, b] = await persist(stack.db(), market, [
      { wallet: wallet(), side: 'BUY', outcome: 1, price: 50, size: '10' },
      { wallet: wallet(), side: 'BUY', outcome: 1, price: 50, size: '10' },
      { wallet: wallet(), side: 'BUY', outcome: 1, price: 50, size: '10' },
      { wallet: wallet(), side: 'BUY', outcome: 0, price: 50, size: '20' },
    ]);
    return { market, a, c, d, b, first: settlementWorkflowId(`${marketKeyOf(market)}:1`) };
  }

  test('when the match of B against A and C is refused and the chain blames A (allowance revoked), then A alone ends MATCH_FAILED with BALANCE_CHANGED; C rests again ahead of D, B is matched again against C and D, and B, C and D end FILLED with nothing held', async () => {
    const { market, a, c, d, b, first } = await attack();
    stack.h.chain.refuseInsideBatch.set(b.order_hash, 'Collateral: allowance');
    stack.h.chain.blame.set(a.order_hash, 'BALANCE_CHANGED');
    // A, C and D rest first (earlier steps, as on a live market), then B comes.
    await stack.matcher.submit(market, [a.order_hash, c.order_hash, d.order_hash]);
    await eventually('makers resting', async () => (await order(d.order_hash))?.status === 'OPEN' && (await order(d.order_hash))?.handoff === 'ACCEPTED', { timeoutMs: 20_000 });
    await stack.matcher.submit(market, [b.order_hash]);
    const result = await eventually('first settlement', () => stack.h.client.workflow.getHandle(first).result().catch(() => null), { timeoutMs: 30_000 });
    expect(result).toMatchObject({ status: 'FAILED' });
    for (const hash of [b.order_hash, c.order_hash, d.order_hash]) {
      await eventually(`${hash} FILLED`, async () => (await order(hash))?.status === 'FILLED', { timeoutMs: 30_000 });
    }
    expect(await order(a.order_hash)).toMatchObject({ status: 'MATCH_FAILED', status_reason: 'BALANCE_CHANGED', reserved_units: '0' });
    for (const hash of [b.order_hash, c.order_hash, d.order_hash]) {
      expect(await order(hash)).toMatchObject({ status: 'FILLED', reserved_units: '0', remaining_units: '0' });
    }
    // The failed match's fills: A's FAILED; B's and C's FAILED and returned. Then B's and C's new trades CONFIRMED.
    expect((await fillsOf(a.order_hash)).map((f) => [f.settlement_status, f.returned ?? false])).toEqual([['FAILED', false]]);
    expect((await fillsOf(c.order_hash)).map((f) => [f.settlement_status, f.returned ?? false, f.size_units])).toEqual([
      ['FAILED', true, (10n * E18).toString()], ['CONFIRMED', false, (10n * E18).toString()],
    ]);
    const bFills = await fillsOf(b.order_hash);
    expect(bFills.filter((f) => f.settlement_status === 'CONFIRMED').map((f) => f.counter_order_hash).sort()).toEqual([c.order_hash, d.order_hash].sort());
    expect(bFills.filter((f) => f.returned).map((f) => f.counter_order_hash).sort()).toEqual([a.order_hash, c.order_hash].sort());
    // Position rows: A's only fill failed (not listed); C and B hold what their settled fills say.
    const row = (o: Parameters<typeof positionRowIdOf>[0], outcome: 0 | 1) => stack.h.collections.positions.findOne({ _id: positionRowIdOf({ ...o, outcome }) });
    expect(await row(a, 1)).toMatchObject({ live: 0, size: '0' });
    expect(await row(c, 1)).toMatchObject({ live: 1, size: (10n * E18).toString() });
    expect(await row(b, 0)).toMatchObject({ live: 2, size: (20n * E18).toString() });
    // C met B again before D did: it kept its place ahead of D.
    const trades = bFills.filter((f) => !f.returned).sort((x, y) => Number(x.trade_id.split(':').pop()) - Number(y.trade_id.split(':').pop()));
    expect(trades.map((f) => f.counter_order_hash)).toEqual([c.order_hash, d.order_hash]);
    await saveHistory(stack.h, first, 'settlement-blames-legs.json');
    await saveHistory(stack.h, `market-${market.chain_id}-${market.condition_id}`, 'market-returns.json');
  });

  test('when the chain blames the taker B, then B alone ends MATCH_FAILED with its reason, and A and C rest again with all of their size, at their original places ahead of D', async () => {
    const { market, a, c, d, b, first } = await attack();
    stack.h.chain.refuseInsideBatch.set(b.order_hash, 'Collateral: allowance');
    stack.h.chain.blame.set(b.order_hash, 'BALANCE_CHANGED');
    await stack.matcher.submit(market, [a.order_hash, c.order_hash, d.order_hash]);
    await eventually('makers resting', async () => (await order(d.order_hash))?.handoff === 'ACCEPTED', { timeoutMs: 20_000 });
    const arrivals = await Promise.all([a, c, d].map(async (o) => (await order(o.order_hash))!.engine_arrival!));
    await stack.matcher.submit(market, [b.order_hash]);
    expect(await eventually('settlement', () => stack.h.client.workflow.getHandle(first).result().catch(() => null), { timeoutMs: 30_000 })).toMatchObject({ status: 'FAILED' });
    await eventually('C back on the book', async () => (await order(c.order_hash))?.status === 'OPEN', { timeoutMs: 20_000 });
    expect(await order(b.order_hash)).toMatchObject({ status: 'MATCH_FAILED', status_reason: 'BALANCE_CHANGED', reserved_units: '0' });
    for (const [i, o] of [a, c].entries()) {
      expect(await order(o.order_hash)).toMatchObject({
        status: 'OPEN', remaining_units: (10n * E18).toString(), filled_units: '0', engine_arrival: arrivals[i], reserved_units: (5n * E18).toString(),
      });
    }
    expect(arrivals[0] < arrivals[1] && arrivals[1] < arrivals[2]).toBe(true);
  });

  test('when a batch transaction ran short of gas and the exchange refused a match unrun ("batch out of gas"), then nobody is blamed and nothing fails: the group is sent again and settles', async () => {
    const { market, a, c, d, b, first } = await attack();
    stack.h.chain.refuseInsideBatch.set(b.order_hash, 'Exchange: batch out of gas');
    await stack.matcher.submit(market, [a.order_hash, c.order_hash, d.order_hash, b.order_hash]);
    expect(await eventually('settlement', () => stack.h.client.workflow.getHandle(first).result().catch(() => null), { timeoutMs: 30_000 })).toMatchObject({ status: 'CONFIRMED', attempts: 2 });
    for (const hash of [a.order_hash, c.order_hash, b.order_hash]) expect((await order(hash))?.status).toBe('FILLED');
  });

  test('when a match is refused and the chain blames no order, then the whole group fails as before, and its orders say SETTLEMENT_FAILED', async () => {
    const { market, a, c, d, b, first } = await attack();
    stack.h.chain.refuseInsideBatch.set(b.order_hash, 'Exchange: paused');
    await stack.matcher.submit(market, [a.order_hash, c.order_hash, d.order_hash, b.order_hash]);
    expect(await eventually('settlement', () => stack.h.client.workflow.getHandle(first).result().catch(() => null), { timeoutMs: 30_000 })).toMatchObject({ status: 'FAILED' });
    for (const hash of [a.order_hash, c.order_hash, b.order_hash]) {
      await eventually(`${hash} MATCH_FAILED`, async () => (await order(hash))?.status === 'MATCH_FAILED', { timeoutMs: 20_000 });
      expect(await order(hash)).toMatchObject({ status_reason: 'SETTLEMENT_FAILED', reserved_units: '0' });
    }
    expect((await order(d.order_hash))?.status).toBe('OPEN');
  });
});
