/**
 * Database command latency from the driver's command monitoring (the connection must be opened
 * with monitorCommands), by command name and collection: the collections are the service's own,
 * a small fixed set, and they name which rows an order's commands write. Beside it, the statements
 * of write commands (documents inserted, updates, deletes): one bulk command carries many.
 */
import type { Connection } from 'mongoose';
import { commandCollection } from '../db/command-collection';
import { followCommands } from '../db/commands-in-flight';
import { storeDuration, storeStatements } from './metrics';

/** The list of a write command that holds its statements (one row written or changed each, at most). */
const STATEMENTS: Record<string, string> = { insert: 'documents', update: 'updates', delete: 'deletes' };

export function observeStoreCommands(connection: Connection): void {
  followCommands(connection, (event) => {
    const body = event.command as Record<string, unknown>;
    const collection = commandCollection(event.commandName, body);
    // SQLite's work grows with the rows a command writes, not with the commands.
    const list = STATEMENTS[event.commandName] ? body[STATEMENTS[event.commandName]] : undefined;
    if (Array.isArray(list)) storeStatements.inc({ command: event.commandName, collection }, list.length);
    return collection;
  }, (collection, event, failed) => {
    storeDuration.observe({ command: event.commandName, collection: collection ?? '', outcome: failed ? 'failed' : 'ok' }, event.duration / 1000);
  });
}
