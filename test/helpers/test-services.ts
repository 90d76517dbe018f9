import { join } from 'node:path';
import { startFerretDb } from '../../src/embedded/ferretdb-server';
import { freePort } from '../../src/embedded/free-port';
import { startTemporalDevServer } from '../../src/embedded/temporal-dev-server';
import { MissingGoError } from '../../src/tools/ensure-go-tool';

export interface TestServices {
  temporalAddress: string;
  mongoUri: string;
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const log = (line: string) => process.stderr.write(`[test-services] ${line}\n`);

async function startMongo(workDir: string): Promise<{ uri: string; stop(): Promise<void> }> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, stop: async () => {} };
  try {
    const server = await startFerretDb({ host: HOST, port: await freePort(HOST), dataDir: join(workDir, 'ferretdb'), logDir: workDir, log, tiedToParent: true });
    return { uri: server.uri, stop: () => server.process.stop() };
  } catch (error) {
    if (!(error instanceof MissingGoError)) throw error;
    // No Go on this machine: mongodb-memory-server's own mongod download is the fallback.
    log('Go is missing; falling back to mongodb-memory-server');
    const { MongoMemoryServer } = await import('mongodb-memory-server');
    const server = await MongoMemoryServer.create();
    return { uri: server.getUri(), stop: async () => void (await server.stop()) };
  }
}

async function startTemporal(workDir: string): Promise<{ address: string; stop(): Promise<void> }> {
  if (process.env.TEMPORAL_ADDRESS) return { address: process.env.TEMPORAL_ADDRESS, stop: async () => {} };
  try {
    const server = await startTemporalDevServer({ host: HOST, port: await freePort(HOST), namespace: 'default', logDir: workDir, log, tiedToParent: true });
    return { address: server.address, stop: () => server.process.stop() };
  } catch (error) {
    if (!(error instanceof MissingGoError)) throw error;
    // No Go on this machine: the SDK's own CLI download is the fallback.
    log('Go is missing; falling back to the Temporal SDK download');
    const { TestWorkflowEnvironment } = await import('@temporalio/testing');
    const env = await TestWorkflowEnvironment.createLocal();
    return { address: env.address, stop: () => env.teardown() };
  }
}

export async function startTestServices(workDir: string): Promise<TestServices> {
  const [mongo, temporal] = await Promise.all([startMongo(workDir), startTemporal(workDir)]);
  return {
    mongoUri: mongo.uri,
    temporalAddress: temporal.address,
    stop: async () => {
      await Promise.all([mongo.stop(), temporal.stop()]);
    },
  };
}
