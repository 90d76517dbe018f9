/**
 * Database command latency from the driver's command monitoring (the connection must be opened
 * with monitorCommands). Labelled by command name only: the driver's command set is small.
 */
import type { Connection } from 'mongoose';
import { storeDuration } from './metrics';

export function observeStoreCommands(connection: Connection): void {
  const client = connection.getClient();
  client.on('commandSucceeded', (event) => storeDuration.observe({ command: event.commandName, outcome: 'ok' }, event.duration / 1000));
  client.on('commandFailed', (event) => storeDuration.observe({ command: event.commandName, outcome: 'failed' }, event.duration / 1000));
}
