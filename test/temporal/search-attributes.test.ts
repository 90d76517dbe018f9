import { listWithin, SEARCH_ATTRIBUTE_VALUE_BYTES } from '../../src/temporal/search-attributes';

const hash = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

describe('search attribute lists', () => {
  test('when values repeat, then each is listed once, in first-seen order', () => {
    expect(listWithin(['b', 'a', 'b', 'c', 'a'])).toEqual({ list: ['b', 'a', 'c'], leftOff: 0 });
  });

  test('when a batch of 1,000 orders is listed, then every hash fits the server limit', () => {
    const { list, leftOff } = listWithin(Array.from({ length: 1_000 }, (_, i) => hash(i)));
    expect([list.length, leftOff]).toEqual([1_000, 0]);
    expect(Buffer.byteLength(JSON.stringify(list))).toBeLessThanOrEqual(SEARCH_ATTRIBUTE_VALUE_BYTES);
  });

  test('when the values exceed the limit, then the list is cut at it and the rest counted', () => {
    const values = Array.from({ length: 100 }, (_, i) => hash(i));
    const { list, leftOff } = listWithin(values, 1_000);
    expect(Buffer.byteLength(JSON.stringify(list))).toBeLessThanOrEqual(1_000);
    expect(Buffer.byteLength(JSON.stringify([...list, values[list.length]]))).toBeGreaterThan(1_000);
    expect(list).toEqual(values.slice(0, list.length));
    expect(list.length + leftOff).toBe(100);
  });
});
