/**
 * The wallets' last heartbeats, one document per wallet in `heartbeats`: `beat_at` (ms since the
 * epoch, written with `$max`, so the beats of several API processes compose in any order) and
 * `ended_at` (when the wallet's switch workflow last ended: expired or disarmed).
 */
import type { Connection, mongo } from 'mongoose';

type Collection<T extends mongo.Document> = mongo.Collection<T>;

export interface HeartbeatRecord {
  _id: string;
  beat_at?: number;
  ended_at?: number;
}

export interface HeartbeatStore {
  /** Writes each wallet's latest beat in one command; answers `ended_at` of those wallets that have one. */
  recordBeats(beats: ReadonlyMap<string, number>): Promise<Map<string, number>>;
  lastBeatOf(wallet: string): Promise<number | null>;
  markEnded(wallet: string, at: number): Promise<void>;
}

export function heartbeatsCollection(connection: Connection): Collection<HeartbeatRecord> {
  if (!connection.db) throw new Error('database not connected');
  return connection.db.collection<HeartbeatRecord>('heartbeats');
}

export function createHeartbeatStore(heartbeats: Collection<HeartbeatRecord>): HeartbeatStore {
  return {
    async recordBeats(beats) {
      if (beats.size === 0) return new Map();
      const wallets = [...beats.keys()];
      await heartbeats.bulkWrite(
        [...beats].map(([wallet, at]) => ({ updateOne: { filter: { _id: wallet }, update: { $max: { beat_at: at } }, upsert: true } })),
        { ordered: false },
      );
      const ended = await heartbeats.find({ _id: { $in: wallets }, ended_at: { $exists: true } }, { projection: { ended_at: 1 } }).toArray();
      return new Map(ended.map((row) => [row._id, row.ended_at!]));
    },
    async lastBeatOf(wallet) {
      const row = await heartbeats.findOne({ _id: wallet }, { projection: { beat_at: 1 } });
      return row?.beat_at ?? null;
    },
    async markEnded(wallet, at) {
      await heartbeats.updateOne({ _id: wallet }, { $max: { ended_at: at } }, { upsert: true });
    },
  };
}
