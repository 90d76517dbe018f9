/**
 * Which registered API processes are alive, timed by the reader's own clock. A row's
 * `heartbeat_at` is written with the API process's clock; `liveNodes` compares it with the
 * reader's, so a worker whose clock ran 10 s ahead of an API machine's dropped live processes (and
 * one behind kept dead ones). Here a row is live while its heartbeat value last changed, as this
 * reader saw it, within STALE_AFTER_MS of this reader's clock: only the writer's clock against
 * itself, and the reader's against itself. A row seen for the first time has no change to time
 * yet: it is judged by the old comparison until it changes (at most one heartbeat).
 */
import { beatLooksFresh, STALE_AFTER_MS, type RealtimeNode } from './node-registry';

export class NodeLiveness {
  /** Per row: its heartbeat as last read, and when (reader's clock) it was last seen to change. */
  private readonly seen = new Map<string, { beat: number; changedAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The live ones of `rows` (all the registry holds); forgets rows no longer there. */
  live(rows: RealtimeNode[]): RealtimeNode[] {
    const t = this.now();
    const present = new Set(rows.map((row) => row._id));
    for (const id of this.seen.keys()) if (!present.has(id)) this.seen.delete(id);
    return rows.filter((row) => {
      const beat = row.heartbeat_at.getTime();
      const last = this.seen.get(row._id);
      if (!last) {
        this.seen.set(row._id, { beat, changedAt: beatLooksFresh(beat, t) ? t : Number.NEGATIVE_INFINITY });
      } else if (last.beat !== beat) {
        this.seen.set(row._id, { beat, changedAt: t });
      }
      return t - this.seen.get(row._id)!.changedAt < STALE_AFTER_MS;
    });
  }

  /** Counts the row as not live until its heartbeat changes (a push to it got no answer). */
  leaveOut(id: string): void {
    const last = this.seen.get(id);
    if (last) last.changedAt = Number.NEGATIVE_INFINITY;
  }

  /** Whether the row is left out until its next heartbeat (or was stale when first seen). */
  isLeftOut(id: string): boolean {
    return this.seen.get(id)?.changedAt === Number.NEGATIVE_INFINITY;
  }
}
