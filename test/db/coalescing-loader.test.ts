import { coalescingLoader, sameTickLoader } from '../../src/db/coalescing-loader';

/** A batch function that records each batch and answers k * 10; the first batch waits for `release()`. */
function firstBatchHeld() {
  const batches: number[][] = [];
  let release!: () => void;
  const first = new Promise<void>((resolve) => {
    release = resolve;
  });
  const batch = async (keys: readonly number[]) => {
    batches.push([...keys]);
    if (batches.length === 1) await first;
    return keys.map((k) => k * 10);
  };
  return { batches, release: () => release(), batch };
}

describe('coalescingLoader (group commit of concurrent calls)', () => {
  it('when calls arrive while a batch is in flight, then they go out together as the next batch, after it', async () => {
    const { batches, release, batch } = firstBatchHeld();
    const loader = coalescingLoader(batch);
    const a = loader.load(1);
    await new Promise((r) => setTimeout(r, 5)); // batch [1] is now in flight
    const later = [2, 3, 4].map((k) => loader.load(k));
    await new Promise((r) => setTimeout(r, 5));
    expect(batches).toEqual([[1]]); // the others wait for it
    release();
    expect(await Promise.all([a, ...later])).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('when a key\'s answer is an Error, then that call alone rejects; when the batch throws, all of its calls do', async () => {
    let fail = false;
    const loader = coalescingLoader(async (keys: readonly number[]) => {
      if (fail) throw new Error('down');
      return keys.map((k) => (k === 2 ? new Error('bad 2') : k));
    });
    const results = await Promise.allSettled([1, 2, 3].map((k) => loader.load(k)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    fail = true;
    const failed = await Promise.allSettled([4, 5].map((k) => loader.load(k)));
    expect(failed.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'ok'))).toEqual(['down', 'down']);
    fail = false;
    expect(await loader.load(6)).toBe(6); // a failed batch does not block the next
  });

  it('when more calls wait than the batch bound, then they go out in batches of at most that many', async () => {
    const sizes: number[] = [];
    const loader = coalescingLoader(async (keys: readonly number[]) => {
      sizes.push(keys.length);
      return [...keys];
    }, 3);
    await Promise.all(Array.from({ length: 7 }, (_, i) => loader.load(i)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(7);
  });
});

describe('sameTickLoader (calls of one tick, no wait)', () => {
  it('when calls arrive in one tick, then they go out together; a call of a later tick goes out at once, beside a batch in flight', async () => {
    const { batches, release, batch } = firstBatchHeld();
    const loader = sameTickLoader(batch);
    const early = [1, 2, 3].map((k) => loader.load(k));
    await new Promise((r) => setTimeout(r, 5)); // batch [1, 2, 3] is now in flight
    const later = loader.load(4);
    expect(await later).toBe(40); // answered while the first batch still waits
    expect(batches).toEqual([[1, 2, 3], [4]]);
    release();
    expect(await Promise.all(early)).toEqual([10, 20, 30]);
  });
});
