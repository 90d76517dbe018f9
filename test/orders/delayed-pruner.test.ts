import { BLOCKS_PER_RUN, DelayedPruner } from '../../src/orders/delayed-pruner';

describe('delayed pruner', () => {
  test('when blocks are scheduled, then none is deleted before its delay, and each run deletes the oldest due blocks, BLOCKS_PER_RUN at most, in one command', async () => {
    let now = 0;
    const deleted: string[][] = [];
    const pruner = new DelayedPruner(async (ids) => void deleted.push(ids), 1_000, () => now);
    for (let block = 0; block < 5; block++) {
      pruner.schedule([`k:${block}a`, `k:${block}b`]);
      now += 100; // block b is due at 1,000 + 100 b
    }
    await pruner.run();
    expect(deleted).toEqual([]);
    now = 1_150; // blocks 0 and 1 due
    await pruner.run();
    await pruner.run();
    expect(deleted).toEqual([['k:0a', 'k:0b', 'k:1a', 'k:1b']]);
    now = 10_000; // all due: two runs of at most BLOCKS_PER_RUN blocks
    await pruner.run();
    await pruner.run();
    expect(BLOCKS_PER_RUN).toBe(2);
    expect(deleted.slice(1)).toEqual([['k:2a', 'k:2b', 'k:3a', 'k:3b'], ['k:4a', 'k:4b']]);
    expect(pruner.pending).toBe(0);
  });

  test('when a delete fails, then the run still ends and the next due blocks go in the next run', async () => {
    const calls: string[][] = [];
    const pruner = new DelayedPruner(async (ids) => {
      calls.push(ids);
      if (calls.length === 1) throw new Error('store unavailable');
    }, 0, () => 0);
    pruner.schedule(['a']);
    await expect(pruner.run()).resolves.toBeUndefined();
    pruner.schedule(['b']);
    await pruner.run();
    expect(calls).toEqual([['a'], ['b']]);
  });
});
