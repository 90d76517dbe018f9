/**
 * The wallets' last heartbeats in `heartbeats`, grouped in 16 documents by the wallet's last hex
 * digit: `{_id: 'bucket-{d}', beats: {wallet: ms}, ended: {wallet: ms}}`. A flush of any number of
 * beats is then at most 16 updates in one command, where a document per wallet made it one upsert
 * per wallet (1,000 a second at 1,000 wallets, more than FerretDB kept up with beside matching).
 * `beats` is written with `$max`, so the beats of several API processes compose in any order.
 * `ended` holds when a wallet's switch last ended (expired, disarmed) while no run is armed.
 */
import type { Connection, mongo } from 'mongoose';

type Collection<T extends mongo.Document> = mongo.Collection<T>;

export interface HeartbeatBucket {
  _id: string;
  beats?: Record<string, number>;
  ended?: Record<string, number>;
}

export interface HeartbeatStore {
  /** Writes each wallet's latest beat (ms since the epoch); answers `ended` of those wallets that have one. */
  recordBeats(beats: ReadonlyMap<string, number>): Promise<Map<string, number>>;
  lastBeatOf(wallet: string): Promise<number | null>;
  /** The wallet's run has ended at `at`: its stored beat goes, its end is kept until a run is armed again. */
  markEnded(wallet: string, at: number): Promise<void>;
  markArmed(wallet: string): Promise<void>;
}

export function heartbeatsCollection(connection: Connection): Collection<HeartbeatBucket> {
  if (!connection.db) throw new Error('database not connected');
  return connection.db.collection<HeartbeatBucket>('heartbeats');
}

/** Wallets are lowercase hex: the last digit spreads them evenly. */
export function heartbeatBucketOf(wallet: string): string {
  return `bucket-${wallet.slice(-1)}`;
}

export function createHeartbeatStore(heartbeats: Collection<HeartbeatBucket>): HeartbeatStore {
  return {
    async recordBeats(beats) {
      if (beats.size === 0) return new Map();
      const byBucket = new Map<string, Record<string, number>>();
      for (const [wallet, at] of beats) {
        const bucket = heartbeatBucketOf(wallet);
        byBucket.set(bucket, { ...byBucket.get(bucket), [`beats.${wallet}`]: at });
      }
      await heartbeats.bulkWrite(
        [...byBucket].map(([bucket, fields]) => ({ updateOne: { filter: { _id: bucket }, update: { $max: fields }, upsert: true } })),
        { ordered: false },
      );
      const rows = await heartbeats.find({ _id: { $in: [...byBucket.keys()] } }, { projection: { ended: 1 } }).toArray();
      const ended = new Map<string, number>();
      for (const row of rows) {
        for (const [wallet, at] of Object.entries(row.ended ?? {})) if (beats.has(wallet)) ended.set(wallet, at);
      }
      return ended;
    },
    async lastBeatOf(wallet) {
      const row = await heartbeats.findOne({ _id: heartbeatBucketOf(wallet) }, { projection: { [`beats.${wallet}`]: 1 } });
      return row?.beats?.[wallet] ?? null;
    },
    async markEnded(wallet, at) {
      await heartbeats.updateOne({ _id: heartbeatBucketOf(wallet) }, { $max: { [`ended.${wallet}`]: at }, $unset: { [`beats.${wallet}`]: '' } }, { upsert: true });
    },
    async markArmed(wallet) {
      await heartbeats.updateOne({ _id: heartbeatBucketOf(wallet) }, { $unset: { [`ended.${wallet}`]: '' } });
    },
  };
}
