/**
 * When this process first saw each hand-off marker, by its own clock. The sweeper ages a marker
 * from that sight, never from the marker's `created_at`: that was written with the API machine's
 * clock, and compared with the worker's it made a worker clock behind the API's delay every
 * recovery by the difference, and one ahead drop markers of orders still being written as
 * orphans (their order then had no marker for a lost hand-off to be found by).
 *
 * The sweeper reads markers in pages of ascending `_id`; a page covers an `_id` range, and a marker
 * of that range that the page did not return is gone (taken or dropped), so it is forgotten here.
 */
export class MarkerSightings {
  private readonly firstSeen = new Map<string, number>();

  /**
   * Records one page read at `now`: `ids` ascending, every marker with `after < _id <= upTo`
   * (`after` undefined: from the first; `upTo` undefined: to the last).
   */
  see(ids: readonly string[], now: number, range: { after?: string; upTo?: string }): void {
    const present = new Set(ids);
    for (const id of this.firstSeen.keys()) {
      const inRange = (range.after === undefined || id > range.after) && (range.upTo === undefined || id <= range.upTo);
      if (inRange && !present.has(id)) this.firstSeen.delete(id);
    }
    for (const id of ids) if (!this.firstSeen.has(id)) this.firstSeen.set(id, now);
  }

  /** Milliseconds since `id` was first seen (0 for a marker not seen yet). */
  ageOf(id: string, now: number): number {
    const first = this.firstSeen.get(id);
    return first === undefined ? 0 : now - first;
  }

  get size(): number {
    return this.firstSeen.size;
  }
}
