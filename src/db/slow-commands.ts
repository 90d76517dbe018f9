/**
 * Logs database commands slower than a threshold: the command, its collection, the field names of
 * its filter (never values: filters carry hashes and wallets) and how long it took. On FerretDB a
 * query not narrowed by `_id` reads the whole collection, and this is how such a query shows up.
 */
import type { Connection } from 'mongoose';
import type { Logger } from '../logging/logger';
import { commandCollection } from './command-collection';
import { followCommands } from './commands-in-flight';

interface Started {
  command: string;
  collection: string;
  filter: string[];
}

const FILTERED = new Set(['find', 'update', 'delete', 'count', 'findAndModify', 'aggregate', 'distinct']);

export function logSlowCommands(connection: Connection, logger: Logger, thresholdMs: number): void {
  followCommands<Started>(connection, (event) => {
    const body = event.command as Record<string, unknown>;
    return { command: event.commandName, collection: commandCollection(event.commandName, body), filter: FILTERED.has(event.commandName) ? filterKeys(body) : [] };
  }, (seen, event, failed) => {
    if (!seen || event.duration < thresholdMs) return;
    logger.warn({ ...seen, ms: Math.round(event.duration), failed }, 'slow database command');
  });
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
