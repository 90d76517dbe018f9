import { Client, Connection } from '@temporalio/client';
import { AppError } from '../errors';

export interface TemporalHandle {
  client: Client;
  connection: Connection;
  close(): Promise<void>;
}

/** Connects the API's Temporal client; an unreachable cluster is SERVICE_DEGRADED. */
export async function connectTemporal(address: string, namespace: string): Promise<TemporalHandle> {
  let connection: Connection;
  try {
    connection = await Connection.connect({ address, connectTimeout: 10_000 });
  } catch (error) {
    throw new AppError('SERVICE_DEGRADED', `Temporal unreachable at ${address}`, undefined, { cause: error });
  }
  const client = new Client({ connection, namespace });
  return { client, connection, close: () => connection.close() };
}

/** Readiness: the frontend answers a cheap RPC within the deadline. */
export async function pingTemporal(connection: Connection): Promise<void> {
  await connection.withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}));
}
