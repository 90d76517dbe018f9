/**
 * Min-heap of (expiration, arrival, hash) for resting orders with an expiration. Cancelled or filled
 * orders are left in and skipped when popped (lazy deletion); the engine checks the hash is still
 * resting with that arrival.
 */
export interface ExpiryEntry {
  expiration: number;
  arrival: number;
  hash: string;
}

export class ExpiryQueue {
  private readonly heap: ExpiryEntry[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(entry: ExpiryEntry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  clear(): void {
    this.heap.length = 0;
  }

  peek(): ExpiryEntry | undefined {
    return this.heap[0];
  }

  pop(): ExpiryEntry | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l], heap[m])) m = l;
        if (r < heap.length && less(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  }
}

function less(a: ExpiryEntry, b: ExpiryEntry): boolean {
  return a.expiration < b.expiration || (a.expiration === b.expiration && a.arrival < b.arrival);
}
