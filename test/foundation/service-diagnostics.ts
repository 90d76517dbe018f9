/**
 * What a failed `npm start` test needs to be understood later: the tail of what the service printed
 * (kept whole in DATA_DIR/logs/npm-start.log by `launch`), of the embedded servers' logs, and what
 * the Temporal server says of the given workflows, with DATA_DIR kept for a closer look.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectDatabase } from '../../src/db/connect';
import { matchingCollections } from '../../src/matching/collections';
import { toolBinaryPath } from '../../src/tools/ensure-go-tool';
import { TEMPORAL_CLI } from '../../src/tools/tool-versions';

export const SERVICE_OUTPUT_FILE = 'npm-start.log';

function tail(file: string, lines: number): string {
  if (!existsSync(file)) return `(no ${file})`;
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

function temporal(address: string, args: string[]): string {
  try {
    return execFileSync(toolBinaryPath(TEMPORAL_CLI), [...args, '--address', address], { encoding: 'utf8', timeout: 15_000, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return `(temporal ${args.join(' ')} failed: ${(error as Error).message.slice(0, 500)})`;
  }
}

/** A workflow's state (pending task, activities, children) and its last events, one line each. */
function workflowState(address: string, id: string): string {
  const described = temporal(address, ['workflow', 'describe', '-w', id, '-o', 'json']);
  const shown = temporal(address, ['workflow', 'show', '-w', id, '-o', 'json']);
  const lines: string[] = [];
  try {
    const d = JSON.parse(described) as Record<string, unknown> & { workflowExecutionInfo?: { status?: string; historyLength?: string } };
    lines.push(`status ${d.workflowExecutionInfo?.status}, history ${d.workflowExecutionInfo?.historyLength} events`);
    lines.push(`pending workflow task: ${JSON.stringify(d.pendingWorkflowTask ?? null)}`);
    for (const a of (d.pendingActivities ?? []) as Record<string, unknown>[]) {
      lines.push(`pending activity: ${JSON.stringify({ ...a, heartbeatDetails: undefined, lastFailure: (a.lastFailure as { message?: string } | undefined)?.message })}`);
    }
    for (const c of (d.pendingChildren ?? []) as unknown[]) lines.push(`pending child: ${JSON.stringify(c)}`);
  } catch {
    lines.push(described.slice(0, 2000));
  }
  try {
    const events = (JSON.parse(shown) as { events: Record<string, unknown>[] }).events;
    for (const e of events.slice(-40)) {
      const attributes = Object.entries(e).find(([k]) => k.endsWith('Attributes'))?.[1] as Record<string, unknown> | undefined;
      const detail = attributes ? JSON.stringify(attributes, (k, v: unknown) => (k === 'input' || k === 'details' || k === 'result' || k === 'header' ? undefined : v)).slice(0, 300) : '';
      lines.push(`${String(e.eventId)} ${String(e.eventTime)} ${String(e.eventType)} ${detail}`);
    }
  } catch {
    lines.push(shown.slice(0, 2000));
  }
  return lines.join('\n');
}

/** How the given orders stand in the store: status, hand-off, marker, and each fill's settlement. */
async function storedOrders(mongoUri: string, hashes: string[]): Promise<string> {
  try {
    const connection = await connectDatabase(mongoUri, 'predex');
    try {
      const c = matchingCollections(connection);
      const [orders, markers] = await Promise.all([
        c.orders.find({ _id: { $in: hashes } }).toArray(),
        c.handoffs.find({ _id: { $in: hashes } }, { projection: { _id: 1 } }).toArray(),
      ]);
      const marked = new Set(markers.map((m) => m._id));
      const fillIds = orders.flatMap((o) => o.fill_ids ?? []);
      const fills = new Map((await c.fills.find({ _id: { $in: fillIds } }).toArray()).map((f) => [f._id, f]));
      return orders.map((o) => {
        const settled = (o.fill_ids ?? []).map((id) => `${id.slice(-12)} ${fills.get(id)?.settlement_status} ${fills.get(id)?.settlement_batch}`);
        return `${o.order_hash} ${o.side} ${o.price} ${o.status} handoff ${o.handoff} marker ${marked.has(o.order_hash)} book_added_at ${o.book_added_at instanceof Date ? o.book_added_at.toISOString() : String(o.book_added_at)} applied_seq ${o.applied_seq} fills [${settled.join('; ')}]`;
      }).join('\n');
    } finally {
      await connection.close();
    }
  } catch (error) {
    return `(store not read: ${(error as Error).message})`;
  }
}

export async function serviceDiagnostics(dataDir: string, services: { temporal: string; mongoUri: string }, workflowIds: string[], orderHashes: string[]): Promise<string> {
  const logs = join(dataDir, 'logs');
  return [
    `--- the orders not FILLED once, in the store`,
    await storedOrders(services.mongoUri, orderHashes),
    `DATA_DIR kept: ${dataDir}`,
    `--- last lines of ${join(logs, SERVICE_OUTPUT_FILE)}`,
    tail(join(logs, SERVICE_OUTPUT_FILE), 150),
    '--- temporal.log',
    tail(join(logs, 'temporal.log'), 40),
    '--- ferretdb.log',
    tail(join(logs, 'ferretdb.log'), 20),
    ...workflowIds.flatMap((id) => [`--- workflow ${id}`, workflowState(services.temporal, id)]),
  ].join('\n');
}
