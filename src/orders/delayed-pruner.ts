/**
 * Deletes old reservation versions only `afterMs` after they were scheduled, never at once.
 *
 * Why: a version id freed by pruning can be inserted again. A process that wrote on a cached
 * version N without a read could then insert `key:N+1` after others had written 20 versions past
 * N and pruned N+1: its insert succeeded on stale holds, a fork below the key's head
 * (docs/orders.md, "Several API processes"). With the delay, version N+1 exists for at least
 * `afterMs` after it was written, so a cache younger than that (less a margin for the insert's own
 * time) still meets it as a taken id and reads the key again. The write path stays read-free.
 *
 * Kept in memory per process: what a process had scheduled when it exits stays in the collection
 * until a later prune of the same key covers it again (each prune covers two blocks), else for
 * good; old versions are audit rows, never read as the head.
 */
/**
 * Scheduled blocks deleted per run at most: twice what a run's caller (the writer of every 20th
 * version) schedules, so deletions keep up, yet come in small commands. Deleting all that fell due
 * at once deleted a burst's thousands of versions (whole ones of ~200 KB among them) in one go,
 * and the single-order requests then waiting on the store saw p99 of 3 s (e2e bench,
 * single-order latency phase).
 */
export const BLOCKS_PER_RUN = 2;

export class DelayedPruner {
  /** Due times rise in scheduling order (one clock, one delay), so the due ones are a prefix. */
  private readonly queue: { dueAt: number; ids: string[] }[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly remove: (ids: string[]) => Promise<unknown>,
    private readonly afterMs: number,
    private readonly now: () => number,
  ) {}

  schedule(ids: string[]): void {
    if (ids.length > 0) this.queue.push({ dueAt: this.now() + this.afterMs, ids });
  }

  /** Versions scheduled and not yet deleted (for tests and operators). */
  get pending(): number {
    return this.queue.reduce((n, entry) => n + entry.ids.length, 0);
  }

  /**
   * Deletes the oldest due blocks, at most BLOCKS_PER_RUN, by primary key. One run at a time: a
   * call while one runs waits for it. A failed delete is not retried (the next prune of the key
   * covers it again).
   */
  run(): Promise<void> {
    this.running ??= this.deleteDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async deleteDue(): Promise<void> {
    const now = this.now();
    let due = 0;
    while (due < Math.min(BLOCKS_PER_RUN, this.queue.length) && this.queue[due].dueAt <= now) due++;
    const ids = this.queue.splice(0, due).flatMap((entry) => entry.ids);
    if (ids.length > 0) await this.remove(ids).catch(() => undefined);
  }
}
