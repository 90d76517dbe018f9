/**
 * Database command latency from the driver's command monitoring (the connection must be opened
 * with monitorCommands), by command name and collection: the collections are the service's own,
 * a small fixed set, and they name which rows an order's commands write.
 */
import type { Connection } from 'mongoose';
import { commandCollection } from '../db/command-collection';
import { storeDuration } from './metrics';

/** Commands started and not yet answered; a dropped connection's never finish, hence the cap. */
const MAX_IN_FLIGHT = 10_000;

export function observeStoreCommands(connection: Connection): void {
  const client = connection.getClient();
  const collections = new Map<number, string>();
  client.on('commandStarted', (event) => {
    if (collections.size > MAX_IN_FLIGHT) collections.clear();
    collections.set(event.requestId, commandCollection(event.commandName, event.command as Record<string, unknown>));
  });
  const finish = (event: { requestId: number; commandName: string; duration: number }, outcome: 'ok' | 'failed') => {
    const collection = collections.get(event.requestId) ?? '';
    collections.delete(event.requestId);
    storeDuration.observe({ command: event.commandName, collection, outcome }, event.duration / 1000);
  };
  client.on('commandSucceeded', (event) => finish(event, 'ok'));
  client.on('commandFailed', (event) => finish(event, 'failed'));
}
