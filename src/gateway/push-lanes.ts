/**
 * Ordered delivery to each API process: one lane per process, one push in flight per lane, and
 * the events published while a push is in flight go out together in the next one, in publish
 * order. A caller therefore need not wait for its push to keep the order of what it publishes
 * after (a market step returns before its events are delivered; docs/realtime.md), and a slow
 * or gone process holds up only its own lane.
 */
import type { RealtimeEvent } from '../ports/realtime-publisher';
import { MAX_PUSH_BYTES } from './push-receiver';

/** Events per push at most (whole publishes; a larger single publish still goes as one push). */
export const MAX_EVENTS_PER_PUSH = 2_000;

interface Queued {
  events: RealtimeEvent[];
  delivered: () => void;
}

/** Sends one body to one process; never throws (a failed push is logged by the sender). */
export type SendPush = (body: string) => Promise<void>;

export class PushLane {
  private readonly queue: Queued[] = [];
  private sending = false;

  /** `idle` runs when the lane has sent everything (its owner may drop it). */
  constructor(private readonly send: SendPush, private readonly idle: () => void, private readonly maxBytes = MAX_PUSH_BYTES) {}

  /** Resolves once these events were pushed (or the push failed), after everything queued before them. */
  deliver(events: RealtimeEvent[]): Promise<void> {
    return new Promise((delivered) => {
      this.queue.push({ events, delivered });
      if (!this.sending) void this.pump();
    });
  }

  private async pump(): Promise<void> {
    this.sending = true;
    while (this.queue.length > 0) {
      const batch = [this.queue.shift()!];
      let count = batch[0].events.length;
      while (this.queue.length > 0 && count + this.queue[0].events.length <= MAX_EVENTS_PER_PUSH) {
        const next = this.queue.shift()!;
        count += next.events.length;
        batch.push(next);
      }
      for (const body of pushBodies(batch.flatMap((q) => q.events), this.maxBytes)) await this.send(body);
      for (const q of batch) q.delivered();
    }
    this.sending = false;
    this.idle();
  }
}

/**
 * The push bodies (`{"events": [...]}`) of `events`, in order, each within `maxBytes` (a receiver
 * refuses a larger one whole). One step's events can pass it: closing or expiring a market of
 * ~8,000 resting orders published ~1 KB per order in one publish, and every order's CANCELLED,
 * the holds and the book's last delta were lost. An event larger than the bound alone goes alone.
 */
export function pushBodies(events: RealtimeEvent[], maxBytes: number): string[] {
  const envelope = Buffer.byteLength('{"events":[]}');
  const bodies: string[] = [];
  let parts: string[] = [];
  let bytes = envelope;
  const close = () => {
    bodies.push(`{"events":[${parts.join(',')}]}`);
    parts = [];
    bytes = envelope;
  };
  for (const event of events) {
    const json = JSON.stringify(event);
    const length = Buffer.byteLength(json);
    // Plus one for the comma before it.
    if (parts.length > 0 && bytes + 1 + length > maxBytes) close();
    bytes += length + (parts.length > 0 ? 1 : 0);
    parts.push(json);
  }
  if (parts.length > 0 || bodies.length === 0) close();
  return bodies;
}
