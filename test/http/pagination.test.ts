import { checkLimit, decodeCursor, encodeCursor, pageQuery, toPage } from '../../src/http/pagination';

describe('pagination helper', () => {
  const key = { at: new Date('2026-05-01T12:00:00.000Z'), id: 'abc' };

  test('when a sort key is encoded, then decoding the cursor returns it', () => {
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  test.each([[undefined], [''], ['%%%'], ['e30'], [Buffer.from('[1,2]').toString('base64url')], [Buffer.from('["2026-13-01T00:00:00.000Z","a"]').toString('base64url')], [Buffer.from('["2026-05-01","a"]').toString('base64url')]])(
    'when the cursor is %p, then it is treated as no cursor',
    (raw) => {
      expect(decodeCursor(raw)).toBeUndefined();
    },
  );

  test('when a cursor is given, then the query continues strictly after its key, newest first with the tie-breaker', () => {
    expect(pageQuery(key, 'created_at', 'trade_id')).toEqual({
      filter: { $or: [{ created_at: { $lt: key.at } }, { created_at: key.at, trade_id: { $lt: 'abc' } }] },
      sort: { created_at: -1, trade_id: -1 },
    });
    expect(pageQuery(undefined, 'created_at', 'trade_id').filter).toEqual({});
  });

  test('when limit + 1 rows are fetched, then the page has limit rows, has_more and the cursor of its last row', () => {
    const rows = [3, 2, 1].map((n) => ({ at: new Date(n * 1000), id: String(n) }));
    const page = toPage(rows, 2, (r) => r, (r) => r.id);
    expect(page).toEqual({ data: ['3', '2'], has_more: true, next_cursor: encodeCursor(rows[1]) });
    expect(toPage(rows, 3, (r) => r, (r) => r.id)).toEqual({ data: ['3', '2', '1'], has_more: false, next_cursor: '' });
  });

  test('when the limit is outside 1..100, then VALIDATION_ERROR; when absent, then 20', () => {
    expect(checkLimit(undefined)).toBe(20);
    expect(checkLimit(100)).toBe(100);
    expect(() => checkLimit(0)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => checkLimit(101)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});
