import type { Connection } from 'mongoose';
import type { Logger } from '../src/logging/logger';

/** What activities may touch: they are the only place workflows reach Mongo, the chain or sockets. */
export interface ActivityDeps {
  db: Connection;
  logger: Logger;
}

/** Builds the activity implementations the worker registers. */
export function createActivities(_deps: ActivityDeps) {
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
