import type { Connection, Model, Schema } from 'mongoose';
import { schemaForStore } from '../index-policy';

/**
 * Registers `schema` on `connection` once and returns the model; later calls return the same
 * model. Models live on a connection, never on the global mongoose (tests hold several databases).
 * Its indexes are the ones the store reads (src/db/index-policy.ts).
 */
export function modelOf<T>(connection: Connection, name: string, schema: Schema<T>, collection: string): Model<T> {
  const existing = connection.models[name] as Model<T> | undefined;
  return existing ?? connection.model<T>(name, schemaForStore(connection, schema), collection);
}
