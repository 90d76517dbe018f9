import { eventually } from '../helpers/eventually';
import { useMarketWorkflowStack } from '../helpers/market-workflow-stack';
import { insertMarket, newMarket, persist, SHARE, wallet } from './market-harness';

describe('post-only and FOK orders through the market workflow', () => {
  const stack = useMarketWorkflowStack('mkt_admit');
  const { order } = stack;

  const ended = (hash: string, status: string) => eventually(`${hash} ${status}`, async () => {
    const o = await order(hash);
    return o?.status === status ? o : null;
  }, { timeoutMs: 20_000 });

  test('when post-only and FOK orders meet a resting ask, then a crossing post-only and an unfillable FOK end CANCELLED with their reasons and never trade; the others rest or fill', async () => {
    stack.h.chain.hold = true;
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const [maker, mm, hedger] = [wallet(), wallet(), wallet()];
    const [ask] = await persist(stack.db(), market, [{ wallet: maker, side: 'SELL', price: 60, size: '10' }]);
    await stack.matcher.submit(market, [ask.order_hash]);
    await eventually('ask on the book', async () => (await order(ask.order_hash))?.book_added_at, { timeoutMs: 20_000 });

    const [crossing, resting, tooBig] = await persist(stack.db(), market, [
      { wallet: mm, side: 'BUY', price: 60, size: '5', postOnly: true },
      { wallet: mm, side: 'BUY', price: 59, size: '5', postOnly: true },
      { wallet: hedger, side: 'BUY', price: 65, size: '11', type: 'FOK' },
    ]);
    await stack.matcher.submit(market, [crossing.order_hash, resting.order_hash, tooBig.order_hash]);
    expect(await ended(crossing.order_hash, 'CANCELLED')).toMatchObject({ status_reason: 'POST_ONLY_WOULD_CROSS', remaining_size: '5', filled_units: '0' });
    expect(await ended(tooBig.order_hash, 'CANCELLED')).toMatchObject({ status_reason: 'FOK_NOT_FILLED', remaining_size: '11', filled_units: '0' });
    expect(await ended(resting.order_hash, 'OPEN')).toMatchObject({ book_added_at: expect.any(Date), post_only: true });
    expect(await order(ask.order_hash)).toMatchObject({ status: 'OPEN', remaining_size: '10' });

    const [fits] = await persist(stack.db(), market, [{ wallet: hedger, side: 'BUY', price: 65, size: '10', type: 'FOK' }]);
    await stack.matcher.submit(market, [fits.order_hash]);
    expect(await ended(fits.order_hash, 'MATCHED')).toMatchObject({ filled_units: (10n * SHARE).toString() });
    const fills = await stack.h.collections.fills.find({ condition_id: market.condition_id }).toArray();
    expect(fills.map((f) => [f.role, f.order_hash]).sort()).toEqual([['maker', ask.order_hash], ['taker', fits.order_hash]].sort());
    // The user channel carries the reason's order with its flags.
    const events = stack.h.publisher.events.filter((e) => e.channel === 'user').map((e) => (e.payload as { order?: { order_hash: string; post_only: boolean; order_type: string } }).order);
    expect(events).toEqual(expect.arrayContaining([expect.objectContaining({ order_hash: resting.order_hash, post_only: true }), expect.objectContaining({ order_hash: fits.order_hash, order_type: 'FOK' })]));
  });
});
