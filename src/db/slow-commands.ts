/**
 * Logs database commands slower than a threshold: the command, its collection, the field names of
 * its filter (never values: filters carry hashes and wallets) and how long it took. On FerretDB a
 * query not narrowed by `_id` reads the whole collection, and this is how such a query shows up.
 */
import type { Connection } from 'mongoose';
import type { Logger } from '../logging/logger';
import { commandCollection } from './command-collection';

interface Started {
  command: string;
  collection: string;
  filter: string[];
}

const FILTERED = new Set(['find', 'update', 'delete', 'count', 'findAndModify', 'aggregate', 'distinct']);

export function logSlowCommands(connection: Connection, logger: Logger, thresholdMs: number): void {
  const client = connection.getClient();
  const started = new Map<number, Started>();
  client.on('commandStarted', (event) => {
    if (started.size > 10_000) started.clear(); // events of a dropped connection never finish
    const body = event.command as Record<string, unknown>;
    started.set(event.requestId, { command: event.commandName, collection: commandCollection(event.commandName, body), filter: FILTERED.has(event.commandName) ? filterKeys(body) : [] });
  });
  const finish = (event: { requestId: number; duration: number }, failed: boolean) => {
    const seen = started.get(event.requestId);
    started.delete(event.requestId);
    if (!seen || event.duration < thresholdMs) return;
    logger.warn({ ...seen, ms: Math.round(event.duration), failed }, 'slow database command');
  };
  client.on('commandSucceeded', (event) => finish(event, false));
  client.on('commandFailed', (event) => finish(event, true));
}

/** Top-level field names of the command's filter(s), e.g. ["_id", "applied_seq"]. */
function filterKeys(body: Record<string, unknown>): string[] {
  const filters: unknown[] = [];
  if (body.filter) filters.push(body.filter);
  if (body.query) filters.push(body.query);
  for (const list of [body.updates, body.deletes]) if (Array.isArray(list)) for (const s of list) filters.push((s as { q?: unknown }).q);
  if (Array.isArray(body.pipeline)) for (const stage of body.pipeline) if ((stage as { $match?: unknown }).$match) filters.push((stage as { $match: unknown }).$match);
  return [...new Set(filters.flatMap((f) => (f && typeof f === 'object' ? Object.keys(f) : [])))];
}
