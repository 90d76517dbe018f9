import type { StoredOrder } from '../../src/matching/collections';
import { LoadedOrders } from '../../src/matching/loaded-orders';

const doc = (order_hash: string) => ({ order_hash, status: 'OPEN', handoff: 'PENDING' }) as unknown as StoredOrder;

describe('the orders a placement step loaded', () => {
  it('when the step writes, then it gets the documents its load kept, the others are to be read, and nothing is handed out twice', () => {
    const loaded = new LoadedOrders();
    loaded.keep('m1', [doc('a'), doc('b')]);
    const first = loaded.take('m1', ['a', 'c']);
    expect(first.found.map((o) => o.order_hash)).toEqual(['a']);
    expect(first.missing).toEqual(['c']);
    // The load is used by one write only: b (kept, not asked) and a retry of the write both read the store.
    expect(loaded.take('m1', ['a', 'b'])).toEqual({ found: [], missing: ['a', 'b'] });
  });

  it('when a market loads again, then only its newest load is kept, and other markets keep theirs', () => {
    const loaded = new LoadedOrders();
    loaded.keep('m1', [doc('a')]);
    loaded.keep('m2', [doc('x')]);
    loaded.keep('m1', [doc('b')]);
    expect(loaded.take('m1', ['a', 'b'])).toEqual({ found: [doc('b')], missing: ['a'] });
    expect(loaded.take('m2', ['x']).found).toEqual([doc('x')]);
  });
});
