import { LocalBook } from '../../src/client/local-book';

describe('the client\'s local book', () => {
  it('when deltas follow the snapshot\'s seq, then they apply, best first; when one is skipped, then the book reports a gap until a new snapshot', () => {
    const book = new LocalBook('0xm');
    expect(book.apply({ type: 'delta', condition_id: '0xm', seq: 3, changes: [] })).toBe('gap'); // nothing before a snapshot
    book.apply({ type: 'snapshot', condition_id: '0xm', seq: 5, bids: [{ price: '0.4', remainingSize: '1' }], asks: [{ price: '0.7', remainingSize: '2' }] });
    expect(book.apply({ type: 'delta', condition_id: '0xm', seq: 5, changes: [{ side: 'bid', price: '0.4', remainingSize: '9' }] })).toBe('applied');
    expect(book.view().bids).toEqual([{ price: '0.4', remainingSize: '1' }]); // already in the snapshot: ignored
    book.apply({ type: 'delta', condition_id: '0xm', seq: 6, changes: [{ side: 'bid', price: '0.45', remainingSize: '3' }, { side: 'ask', price: '0.7', remainingSize: '0' }, { side: 'ask', price: '0.65', remainingSize: '1' }] });
    expect(book.view()).toEqual({ condition_id: '0xm', seq: 6, bids: [{ price: '0.45', remainingSize: '3' }, { price: '0.4', remainingSize: '1' }], asks: [{ price: '0.65', remainingSize: '1' }] });
    expect(book.apply({ type: 'delta', condition_id: '0xm', seq: 8, changes: [] })).toBe('gap');
    expect(book.apply({ type: 'delta', condition_id: '0xm', seq: 9, changes: [] })).toBe('gap'); // stale until a snapshot
    expect(book.apply({ type: 'snapshot', condition_id: '0xm', seq: 9, bids: [], asks: [] })).toBe('applied');
    expect(book.apply({ type: 'delta', condition_id: '0xm', seq: 10, changes: [] })).toBe('applied');
  });
});
