/**
 * Database command latency from the driver's command monitoring (the connection must be opened
 * with monitorCommands), by command name and collection: the collections are the service's own,
 * a small fixed set, and they name which rows an order's commands write. Beside it, the statements
 * of write commands (documents inserted, updates, deletes): one bulk command carries many.
 */
import type { Connection } from 'mongoose';
import { commandCollection } from '../db/command-collection';
import { storeDuration, storeStatements } from './metrics';

/** The list of a write command that holds its statements (one row written or changed each, at most). */
const STATEMENTS: Record<string, string> = { insert: 'documents', update: 'updates', delete: 'deletes' };

/** Commands started and not yet answered; a dropped connection's never finish, hence the cap. */
const MAX_IN_FLIGHT = 10_000;

export function observeStoreCommands(connection: Connection): void {
  const client = connection.getClient();
  const collections = new Map<number, string>();
  client.on('commandStarted', (event) => {
    if (collections.size > MAX_IN_FLIGHT) collections.clear();
    const body = event.command as Record<string, unknown>;
    const collection = commandCollection(event.commandName, body);
    collections.set(event.requestId, collection);
    // SQLite's work grows with the rows a command writes, not with the commands.
    const list = STATEMENTS[event.commandName] ? body[STATEMENTS[event.commandName]] : undefined;
    if (Array.isArray(list)) storeStatements.inc({ command: event.commandName, collection }, list.length);
  });
  const finish = (event: { requestId: number; commandName: string; duration: number }, outcome: 'ok' | 'failed') => {
    const collection = collections.get(event.requestId) ?? '';
    collections.delete(event.requestId);
    storeDuration.observe({ command: event.commandName, collection, outcome }, event.duration / 1000);
  };
  client.on('commandSucceeded', (event) => finish(event, 'ok'));
  client.on('commandFailed', (event) => finish(event, 'failed'));
}
