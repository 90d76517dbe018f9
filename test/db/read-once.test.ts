import { readOnce } from '../../src/db/read-once';

describe('a read done once per key', () => {
  it('when callers arrive together, then they share one read; a found value is kept, nothing found or a failure is read again', async () => {
    const answers: (string | null | Error)[] = ['a', null, new Error('down'), 'b'];
    const calls: string[] = [];
    const find = readOnce((key: string) => key, (key: string) => {
      calls.push(key);
      const answer = key === 'x' ? 'x-value' : answers.shift()!;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    });
    expect(await Promise.all([find('k'), find('k'), find('k')])).toEqual(['a', 'a', 'a']);
    expect(await find('k')).toBe('a');
    expect(calls).toEqual(['k']);
    expect(await find('m')).toBeNull();
    await expect(find('m')).rejects.toThrow('down');
    expect(await find('m')).toBe('b');
    expect(await find('m')).toBe('b');
    expect(calls).toEqual(['k', 'm', 'm', 'm']);
  });
});
