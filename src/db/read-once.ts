/**
 * A read of something that never changes once it exists (a market's collateral, its decimals),
 * done once per key and process. The promise is what is kept, so callers that arrive together for
 * a key not read yet share one read; a read that found nothing, or failed, is done again next time.
 */
export function readOnce<A extends unknown[], T>(keyOf: (...args: A) => string, read: (...args: A) => Promise<T | null>): (...args: A) => Promise<T | null> {
  const reads = new Map<string, Promise<T | null>>();
  return (...args) => {
    const key = keyOf(...args);
    let found = reads.get(key);
    if (!found) {
      found = read(...args);
      reads.set(key, found);
      void found.then((value) => value ?? reads.delete(key), () => reads.delete(key));
    }
    return found;
  };
}
