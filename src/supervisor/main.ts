import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, Config, ConfigError } from '../config';
import { lowerChainThreadPriority } from '../chain/local/chain-thread-priority';
import { startLocalChain } from '../chain/local/start-local-chain';
import { startFerretDb } from '../embedded/ferretdb-server';
import type { ManagedProcess } from '../embedded/managed-process';
import { startTemporalDevServer } from '../embedded/temporal-dev-server';
import { resolveServiceNode } from '../tools/service-node';
import { ChildService } from './child-service';
import { devSecretsFile, ensureDevSecrets } from './dev-secrets';
import { portsInUse, type NeededPort } from './port-check';
import { StartedProcesses } from './started-processes';
import { waitForApi, waitForWorker } from './readiness';

const log = (line: string) => process.stdout.write(`[predex] ${line}\n`);

/** The ports this start will listen on, with the variable that moves each. */
function neededPorts(config: Config): NeededPort[] {
  const ports: NeededPort[] = [];
  if (!config.TEMPORAL_ADDRESS) {
    ports.push({ port: config.TEMPORAL_PORT, what: 'Temporal', variable: 'TEMPORAL_PORT' });
    if (config.TEMPORAL_UI_PORT) ports.push({ port: config.TEMPORAL_UI_PORT, what: 'Temporal UI', variable: 'TEMPORAL_UI_PORT' });
  }
  if (!config.MONGODB_URI) ports.push({ port: config.MONGODB_PORT, what: 'FerretDB', variable: 'MONGODB_PORT' });
  if (!config.CHAIN_RPC_URL) ports.push({ port: config.CHAIN_PORT, what: 'chain JSON-RPC', variable: 'CHAIN_PORT' });
  ports.push({ port: config.PORT, what: 'API', variable: 'PORT' });
  return ports;
}

/**
 * `npm start`: the whole service in one supervised process tree. Embedded servers (unless their
 * external URIs are given) keep their state under DATA_DIR, so a second start finds the same data.
 * Ctrl-C stops our processes first (they drain), then the servers they depend on.
 */
async function main(): Promise<void> {
  const config: Config = loadConfig();
  const dataDir = resolve(config.DATA_DIR);
  const logDir = join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  // Taken first: it stops what a supervisor killed before could not (its record in DATA_DIR).
  const started = await StartedProcesses.take(dataDir, log);
  const servers: ManagedProcess[] = [];
  const inProcess: { name: string; stop(): Promise<void> }[] = [];
  const services: ChildService[] = [];
  let stopping = false;

  const stopAll = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping...');
    for (const service of [...services].reverse()) await service.stop();
    for (const server of [...servers].reverse()) await server.stop();
    for (const part of [...inProcess].reverse()) await part.stop().catch(() => undefined);
    started.release();
    log('stopped');
    process.exit(exitCode);
  };
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  try {
    // The API and the worker run on the pinned Node LTS (src/tools/service-node.ts). Resolved
    // first: a wrong SERVICE_NODE stops the start before any server is up.
    const node = await resolveServiceNode(config.SERVICE_NODE, log);
    if (node !== process.execPath) log(`API and worker on ${node}`);
    const secrets = ensureDevSecrets(dataDir, { ...process.env });
    const env: NodeJS.ProcessEnv = secrets.env;
    if (secrets.generated.length > 0) {
      log(`development secrets for ${secrets.generated.join(', ')} are in ${devSecretsFile(dataDir)} (set them in the environment for production)`);
    }
    const held = await portsInUse(config.HOST, neededPorts(config));
    if (held.length > 0) throw new Error(held.join('\n[predex] '));
    let temporalUi: string | undefined;
    if (!config.TEMPORAL_ADDRESS) {
      const temporal = await startTemporalDevServer({
        host: config.HOST,
        port: config.TEMPORAL_PORT,
        uiPort: config.TEMPORAL_UI_PORT,
        dbFile: join(dataDir, 'temporal.db'),
        namespace: config.TEMPORAL_NAMESPACE,
        logDir,
        log,
        gomaxprocs: config.EMBEDDED_GOMAXPROCS,
        sqliteSync: config.EMBEDDED_SQLITE_SYNC,
        onSpawn: (pid) => started.started('temporal', pid),
      });
      servers.push(temporal.process);
      temporalUi = temporal.uiUrl;
      // The market page links each market's workflow there.
      if (temporalUi) env.TEMPORAL_UI_URL ??= temporalUi;
      env.TEMPORAL_ADDRESS = temporal.address;
      log(`Temporal dev server on ${temporal.address}`);
    }
    if (!config.MONGODB_URI) {
      const mongo = await startFerretDb({
        host: config.HOST,
        port: config.MONGODB_PORT,
        dataDir: join(dataDir, 'ferretdb'),
        logDir,
        log,
        gogc: config.FERRETDB_GOGC,
        gomaxprocs: config.EMBEDDED_GOMAXPROCS,
        sqliteSync: config.EMBEDDED_SQLITE_SYNC,
        onSpawn: (pid) => started.started('ferretdb', pid),
      });
      servers.push(mongo.process);
      env.MONGODB_URI = mongo.uri;
      // FerretDB (SQLite) stalls for good once ~200 connections wait on it; a small pool per
      // process queues in the driver instead (`tsx bench/e2e/ferretdb-stall-repro.ts` shows the stall).
      env.MONGODB_MAX_POOL_SIZE ??= '8';
      log(`FerretDB on ${mongo.uri}`);
    }
    if (!config.CHAIN_RPC_URL) {
      // EDR runs inside this process: it is a library, and its JSON-RPC endpoint is ours.
      const chain = await startLocalChain({ host: config.HOST, port: config.CHAIN_PORT, chainId: config.CHAIN_ID, dataDir, log });
      // The chain's EVM threads give way to the exchange's processes (chain-thread-priority.ts).
      const priority = lowerChainThreadPriority(config.CHAIN_THREAD_NICE);
      inProcess.push({ name: 'chain', stop: async () => { priority.stop(); await chain.stop(); } });
      env.CHAIN_RPC_URL = chain.rpcUrl;
      env.OPERATOR_PRIVATE_KEY = chain.operatorKey; // Hardhat's public dev key #0, never a real one
      env.EXCHANGE_ADDRESS = chain.addresses.exchange;
      env.COLLATERAL_ADDRESS = chain.addresses.collateral;
      env.CONDITIONAL_TOKENS_ADDRESS = chain.addresses.conditionalTokens;
      env.LOCAL_DEV_CHAIN = 'true';
      log(`local chain (id ${chain.chainId}) on ${chain.rpcUrl}, exchange ${chain.addresses.exchange}`);
    }
    for (const server of servers) {
      void server.exited.then((code) => {
        if (!stopping) {
          log(`${server.name} exited (${code}); see ${logDir}/${server.name}.log`);
          void stopAll(1);
        }
      });
    }

    const giveUp = (reason: string) => {
      log(reason);
      void stopAll(1);
    };
    const distRoot = resolve(__dirname, '..', '..');
    // The preload keeps the SDK's stack-trace promise hook out of the workflow threads (docs/matching.md).
    const workerPreload = ['--require', join(distRoot, 'src', 'temporal', 'no-workflow-stack-traces.js')];
    const child = (name: string, script: string, nodeArgs: string[] = [], childEnv = env) =>
      new ChildService({ name, script, env: childEnv, onGiveUp: giveUp, log, nodeArgs, nodeBinary: node, onSpawn: (pid) => started.started(name, pid) });
    const worker = child('worker', join(distRoot, 'workers', 'main.js'), workerPreload);
    // The API holds no operator key: the worker signs every chain write.
    const api = child('api', join(distRoot, 'src', 'api', 'main.js'), [], { ...env, OPERATOR_PRIVATE_KEY: undefined });
    services.push(worker, api);
    worker.start();
    api.start();
    const apiUrl = `http://${config.HOST}:${config.PORT}`;
    await Promise.all([
      waitForApi(apiUrl, 60_000),
      waitForWorker(env.TEMPORAL_ADDRESS!, config.TEMPORAL_NAMESPACE, config.TEMPORAL_TASK_QUEUE, 60_000),
    ]);
    if (env.LOCAL_DEV_CHAIN === 'true' && config.DEMO_BOTS) {
      // A demo nicety: bots that keep crashing stop alone, never the exchange.
      const bots = new ChildService({
        name: 'bots', script: join(distRoot, 'src', 'bots', 'demo-bots.js'), env, log, nodeBinary: node,
        onGiveUp: (reason) => log(`demo bots stopped: ${reason}`), onSpawn: (pid) => started.started('bots', pid),
      });
      services.push(bots);
      bots.start();
    }
    log('ready');
    log(`  API          ${apiUrl}/v1   (health: ${apiUrl}/readyz)`);
    log(`  WebSocket    ${apiUrl.replace('http', 'ws')}/v1/ws`);
    log(`  market page  ${apiUrl}/`);
    log(`  chain RPC    ${env.CHAIN_RPC_URL ?? '(none)'}`);
    if (temporalUi) log(`  Temporal UI  ${temporalUi}`);
    log(`  data         ${dataDir}`);
    log('Press Ctrl-C to stop.');
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    await stopAll(error instanceof ConfigError ? 2 : 1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `${String(error)}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
