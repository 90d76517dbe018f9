import type { Connection } from 'mongoose';
import type { RealtimeEvent, RealtimePublisher } from '../contracts/realtime-publisher';
import type { Logger } from '../logging/logger';
import { liveNodes, RealtimeNode } from './node-registry';
import { PushLane } from './push-lanes';
import { PUSH_PATH } from './push-receiver';

export interface PushPublisherOptions {
  /** How long the list of API processes is reused (default 1 s): a new process is reached within it. */
  nodesTtlMs?: number;
  /** Time limit of one push (default 2 s). */
  timeoutMs?: number;
}

/**
 * Pushes each batch to every live API process, each through its own ordered lane (push-lanes.ts),
 * and resolves once each has answered (or failed: a process that cannot be reached is logged and
 * skipped; its book subscribers see a seq gap and resnapshot, REST stays the truth). Batches reach
 * every process in the order `publish` was called, awaited or not, which keeps each market's and
 * each order's order.
 */
export function createPushPublisher(db: Connection, logger: Logger | undefined, options: PushPublisherOptions = {}): RealtimePublisher {
  const ttl = options.nodesTtlMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 2_000;
  let cached: { at: number; nodes: RealtimeNode[] } | undefined;
  let loading: Promise<RealtimeNode[]> | undefined;

  async function nodes(): Promise<RealtimeNode[]> {
    if (cached && Date.now() - cached.at < ttl) return cached.nodes;
    loading ??= liveNodes(db)
      .then((list) => {
        cached = { at: Date.now(), nodes: list };
        return list;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  async function push(node: RealtimeNode, body: string): Promise<void> {
    try {
      const res = await fetch(`${node.url}${PUSH_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${node.secret}` },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.status !== 204) throw new Error(`push answered ${res.status}`);
    } catch (error) {
      logger?.warn({ err: error, node: node._id, url: node.url }, 'realtime push to an API process failed');
      cached = undefined; // the process may be gone: re-read the registry next time
    }
  }

  const lanes = new Map<string, PushLane>();
  const laneOf = (node: RealtimeNode): PushLane => {
    const key = `${node._id}|${node.url}`;
    let lane = lanes.get(key);
    if (!lane) {
      lane = new PushLane((body) => push(node, body), () => lanes.delete(key));
      lanes.set(key, lane);
    }
    return lane;
  };
  /** Publishes reach the lanes in call order, whatever the registry read in between costs. */
  let dispatched: Promise<unknown> = Promise.resolve();

  return {
    publish(events: RealtimeEvent[]) {
      if (events.length === 0) return Promise.resolve();
      const queued = dispatched.then(async () => {
        const list = await nodes();
        return list.map((node) => laneOf(node).deliver(events));
      });
      dispatched = queued.catch(() => undefined);
      return queued.then((deliveries) => Promise.all(deliveries)).then(() => undefined);
    },
  };
}
