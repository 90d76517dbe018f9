import type { Connection } from 'mongoose';
import type { RealtimeEvent, RealtimePublisher } from '../ports/realtime-publisher';
import type { Logger } from '../logging/logger';
import { NodeLiveness } from './node-liveness';
import { registeredNodes, type RealtimeNode } from './node-registry';
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
 * skipped until its next heartbeat; its book subscribers see a seq gap and resnapshot, REST stays
 * the truth). Batches reach
 * every process in the order `publish` was called, awaited or not, which keeps each market's and
 * each order's order.
 */
export function createPushPublisher(db: Connection, logger: Logger | undefined, options: PushPublisherOptions = {}): RealtimePublisher {
  const ttl = options.nodesTtlMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 2_000;
  let cached: { at: number; nodes: RealtimeNode[] } | undefined;
  let loading: Promise<RealtimeNode[]> | undefined;
  /**
   * Which nodes are live, by this process's own clock. A node a push got no answer from is left
   * out until it beats again (HEARTBEAT_MS): a market step waits for the previous step's delivery
   * to every node, so a node that does not answer held every market for the push timeout at each
   * step; now it costs one timeout per heartbeat.
   */
  const liveness = new NodeLiveness();

  async function nodes(): Promise<RealtimeNode[]> {
    if (cached && Date.now() - cached.at < ttl) return cached.nodes;
    loading ??= registeredNodes(db)
      .then((rows) => {
        const list = liveness.live(rows);
        cached = { at: Date.now(), nodes: list };
        return list;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  async function push(node: RealtimeNode, body: string): Promise<void> {
    // Queued in its lane before the node failed: dropped too (its sockets resync from REST).
    if (liveness.isLeftOut(node._id)) return;
    let status: number;
    try {
      status = (await fetch(`${node.url}${PUSH_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${node.secret}` },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      })).status;
    } catch (error) {
      // No answer (gone, unreachable, or past the timeout): left out until it beats again.
      logger?.warn({ err: error, node: node._id, url: node.url }, 'realtime push to an API process got no answer: left out until its next heartbeat');
      liveness.leaveOut(node._id);
      cached = undefined; // the process may be gone: re-read the registry next time
      return;
    }
    // An answer, however unwelcome, took no timeout: the node stays in (this push is lost).
    if (status !== 204) logger?.warn({ status, node: node._id, url: node.url }, 'realtime push to an API process was refused');
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
