import { getHeapStatistics } from 'node:v8';

export interface HeapUse {
  used: number;
  limit: number;
}

export const heapUse = (): HeapUse => {
  const stats = getHeapStatistics();
  return { used: stats.used_heap_size, limit: stats.heap_size_limit };
};

export interface MemoryGuard {
  /** Whether the heap was past the threshold at the last check (handshakes are then refused). */
  overloaded(): boolean;
  stop(): void;
}

/**
 * Checks the heap every `everyMs`; past `fraction` of its limit, asks `shed` to close a twentieth
 * of the connections (at least one), newest first, at each check until the heap is back under:
 * the process sheds sockets before V8 aborts it and every socket and request with it.
 */
export function startMemoryGuard(settings: { fraction: number; everyMs: number }, connections: () => number, shed: (count: number) => void, probe: () => HeapUse = heapUse): MemoryGuard {
  let over = false;
  const timer = setInterval(() => {
    const { used, limit } = probe();
    over = used >= settings.fraction * limit;
    if (over && connections() > 0) shed(Math.max(1, Math.ceil(connections() / 20)));
  }, settings.everyMs);
  timer.unref();
  return { overloaded: () => over, stop: () => clearInterval(timer) };
}
