import type { Connection, mongo } from 'mongoose';
import type { RealtimeEvent } from '../ports/realtime-publisher';

/**
 * The realtime event log: one document per published event, numbered by one global sequence that
 * a counter document hands out in blocks (`$inc`). Workers append, every API process polls
 * `seq > last` in order. Plain collections and findAndModify only: FerretDB has no change streams,
 * no transactions and no TTL indexes, so the publisher also sweeps old rows itself.
 */
export const EVENTS_COLLECTION = 'realtime_events';
export const COUNTERS_COLLECTION = 'realtime_counters';
const COUNTER_ID = 'realtime_events';

export interface LoggedEvent {
  seq: number;
  at: Date;
  event: RealtimeEvent;
}

interface CounterDoc {
  _id: string;
  seq: number;
}

export interface EventLog {
  /** Appends events with consecutive seqs, in order. */
  append(events: RealtimeEvent[]): Promise<void>;
  /** Events with seq > after, ascending, at most `limit`. */
  readAfter(after: number, limit: number): Promise<LoggedEvent[]>;
  /** The highest seq handed out so far (0 when none). */
  head(): Promise<number>;
  /** Deletes events older than `before`. */
  sweep(before: Date): Promise<number>;
  ensureIndexes(): Promise<void>;
}

function collections(db: Connection): { events: mongo.Collection<LoggedEvent>; counters: mongo.Collection<CounterDoc> } {
  const native = db.db;
  if (!native) throw new Error('database not connected');
  return { events: native.collection<LoggedEvent>(EVENTS_COLLECTION), counters: native.collection<CounterDoc>(COUNTERS_COLLECTION) };
}

export function createEventLog(db: Connection): EventLog {
  const { events, counters } = collections(db);

  async function reserve(count: number): Promise<number> {
    // Two first-ever publishers can race the upsert: the loser gets a duplicate key and retries.
    for (let attempt = 0; ; attempt += 1) {
      try {
        const doc = await counters.findOneAndUpdate({ _id: COUNTER_ID }, { $inc: { seq: count } }, { upsert: true, returnDocument: 'after' });
        if (!doc) throw new Error('event counter missing after upsert');
        return doc.seq - count + 1;
      } catch (error) {
        if (attempt < 2 && (error as { code?: number }).code === 11000) continue;
        throw error;
      }
    }
  }

  return {
    async append(list) {
      if (list.length === 0) return;
      const first = await reserve(list.length);
      const at = new Date();
      await events.insertMany(
        list.map((event, i) => ({ seq: first + i, at, event })),
        { ordered: true },
      );
    },
    async readAfter(after, limit) {
      const rows = await events.find({ seq: { $gt: after } }, { projection: { _id: 0 } }).sort({ seq: 1 }).limit(limit).toArray();
      return rows as LoggedEvent[];
    },
    async head() {
      const doc = await counters.findOne({ _id: COUNTER_ID });
      return doc?.seq ?? 0;
    },
    async sweep(before) {
      const result = await events.deleteMany({ at: { $lt: before } });
      return result.deletedCount;
    },
    async ensureIndexes() {
      await events.createIndex({ seq: 1 }, { unique: true });
      await events.createIndex({ at: 1 });
    },
  };
}
