import { randomBytes } from 'node:crypto';
import type { Connection, mongo } from 'mongoose';
import type { Logger } from '../logging/logger';

/**
 * The API processes currently serving sockets, so that workers know where to push events.
 * One tiny row per process (`realtime_nodes`), refreshed by a heartbeat; rows go stale when a
 * process dies without saying goodbye. The push secret lives in the row: anyone who can read
 * this database can already do far worse than push a realtime event.
 */
export const NODES_COLLECTION = 'realtime_nodes';

export interface RealtimeNode {
  _id: string;
  url: string;
  secret: string;
  started_at: Date;
  heartbeat_at: Date;
}

export const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 15_000;

function nodes(db: Connection): mongo.Collection<RealtimeNode> {
  const native = db.db;
  if (!native) throw new Error('database not connected');
  return native.collection<RealtimeNode>(NODES_COLLECTION);
}

export interface NodeRegistration {
  id: string;
  secret: string;
  stop(): Promise<void>;
}

/** Registers this process's push endpoint and keeps its heartbeat until `stop`. */
export async function registerNode(db: Connection, url: string, logger: Logger): Promise<NodeRegistration> {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const collection = nodes(db);
  const now = new Date();
  await collection.insertOne({ _id: id, url, secret, started_at: now, heartbeat_at: now });
  // Rows of processes long gone (crashed, killed) are removed by whoever starts next.
  await collection.deleteMany({ heartbeat_at: { $lt: new Date(now.getTime() - 60 * STALE_AFTER_MS) } });
  const timer = setInterval(() => {
    collection.updateOne({ _id: id }, { $set: { heartbeat_at: new Date(), url, secret } }, { upsert: true }).catch((error: unknown) => {
      logger.warn({ err: error }, 'realtime node heartbeat failed');
    });
  }, HEARTBEAT_MS);
  timer.unref();
  return {
    id,
    secret,
    async stop() {
      clearInterval(timer);
      await collection.deleteOne({ _id: id }).catch(() => undefined);
    },
  };
}

/** Every registered row, live or not (NodeLiveness tells). The collection holds one row per process. */
export async function registeredNodes(db: Connection): Promise<RealtimeNode[]> {
  return nodes(db).find({}).toArray();
}

/** Whether a heartbeat (the writer's clock) is within STALE_AFTER_MS of `nowMs` (the reader's clock). */
export function beatLooksFresh(beatMs: number, nowMs: number): boolean {
  return beatMs > nowMs - STALE_AFTER_MS;
}

/** Live nodes by the reader's clock against the writers' (heartbeat within STALE_AFTER_MS). */
export async function liveNodes(db: Connection, now = new Date()): Promise<RealtimeNode[]> {
  return (await registeredNodes(db)).filter((n) => beatLooksFresh(n.heartbeat_at.getTime(), now.getTime()));
}
