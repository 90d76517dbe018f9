import type { Connection, Model, Schema } from 'mongoose';

/**
 * Registers `schema` on `connection` once and returns the model; later calls return the same
 * model. Models live on a connection, never on the global mongoose (tests hold several databases).
 */
export function modelOf<T>(connection: Connection, name: string, schema: Schema<T>, collection: string): Model<T> {
  const existing = connection.models[name] as Model<T> | undefined;
  return existing ?? connection.model<T>(name, schema, collection);
}
