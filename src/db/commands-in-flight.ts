/**
 * The driver's command monitoring as start and finish pairs: what `started` keeps of a command is
 * handed to `finished` with its duration (the connection must be opened with monitorCommands).
 * Commands of a dropped connection never finish, so past 10,000 in flight the kept ones go.
 */
import type { Connection, mongo } from 'mongoose';

const MAX_IN_FLIGHT = 10_000;

export interface FinishedCommand {
  commandName: string;
  duration: number;
}

export function followCommands<T>(
  connection: Connection,
  started: (event: mongo.CommandStartedEvent) => T,
  finished: (seen: T | undefined, event: FinishedCommand, failed: boolean) => void,
): void {
  const client = connection.getClient();
  const inFlight = new Map<number, T>();
  client.on('commandStarted', (event) => {
    if (inFlight.size > MAX_IN_FLIGHT) inFlight.clear();
    inFlight.set(event.requestId, started(event));
  });
  const finish = (event: FinishedCommand & { requestId: number }, failed: boolean) => {
    const seen = inFlight.get(event.requestId);
    inFlight.delete(event.requestId);
    finished(seen, event, failed);
  };
  client.on('commandSucceeded', (event) => finish(event, false));
  client.on('commandFailed', (event) => finish(event, true));
}
