/**
 * Every environment variable the service reads, with its parser and default. The README's
 * configuration table documents exactly this list (a test keeps the two in step).
 */
export type Parser<T> = (raw: string) => T;

export interface VarSpec<T> {
  parse: Parser<T>;
  default?: T;
  description: string;
  secret?: boolean;
}

const port: Parser<number> = (raw) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error('must be a port number 0..65535');
  return n;
};
const positiveInt: Parser<number> = (raw) => {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) throw new Error('must be a positive integer');
  return n;
};
const nonNegativeInt: Parser<number> = (raw) => {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n)) throw new Error('must be a non-negative integer');
  return n;
};
/** A nice value a process may take without privileges: 0 (as it is) to 19 (lowest priority). */
const niceValue: Parser<number> = (raw) => {
  const n = nonNegativeInt(raw);
  if (n > 19) throw new Error('must be a nice value 0..19');
  return n;
};
/** SQLite's `synchronous` setting of the embedded servers' files: `normal` or `full`. */
const sqliteSync: Parser<'normal' | 'full'> = (raw) => {
  if (raw !== 'normal' && raw !== 'full') throw new Error('must be normal or full');
  return raw;
};

/** A percentage 1..99. */
const percent: Parser<number> = (raw) => {
  const n = positiveInt(raw);
  if (n > 99) throw new Error('must be a percentage 1..99');
  return n;
};
/** `lts`, `current`, or an absolute path to a Node binary (SERVICE_NODE). */
const nodeBinary: Parser<string> = (raw) => {
  if (raw !== 'lts' && raw !== 'current' && !raw.startsWith('/')) throw new Error('must be lts, current or an absolute path to a node binary');
  return raw;
};
const text: Parser<string> = (raw) => {
  if (raw.trim() === '') throw new Error('must not be empty');
  return raw;
};
const url: Parser<string> = (raw) => {
  try {
    new URL(raw);
  } catch {
    throw new Error('must be a URL');
  }
  return raw;
};
const hostPort: Parser<string> = (raw) => {
  if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(raw)) throw new Error('must be host:port');
  return raw;
};
const address: Parser<`0x${string}`> = (raw) => {
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw new Error('must be a 0x-prefixed 20-byte address');
  return raw as `0x${string}`;
};
const privateKey: Parser<`0x${string}`> = (raw) => {
  if (!/^0x[0-9a-fA-F]{64}$/.test(raw)) throw new Error('must be a 0x-prefixed 32-byte hex private key');
  return raw as `0x${string}`;
};
const logLevel: Parser<string> = (raw) => {
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(raw)) {
    throw new Error('must be one of fatal, error, warn, info, debug, trace, silent');
  }
  return raw;
};
const bool: Parser<boolean> = (raw) => {
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error('must be true, false, 1 or 0');
};
const secret32: Parser<string> = (raw) => {
  if (raw.length < 32) throw new Error('must be at least 32 characters');
  return raw;
};

export const ENV_SPEC = {
  HOST: { parse: text, default: '127.0.0.1', description: 'Interface the API (and embedded servers) listen on' },
  PORT: { parse: port, default: 8080, description: 'API HTTP port (REST under /v1, socket.io under /v1/ws)' },
  DATA_DIR: { parse: text, default: './data', description: 'Folder for the embedded servers\' on-disk state (Temporal, FerretDB, chain)' },
  TOOLS_DIR: { parse: text, description: 'Cache of the Go-built tools and the service\'s Node (default ~/.cache/predex-tools)' },
  LOG_LEVEL: { parse: logLevel, default: 'info', description: 'pino log level' },
  TEMPORAL_ADDRESS: { parse: hostPort, description: 'External Temporal frontend host:port; unset starts the embedded dev server' },
  TEMPORAL_NAMESPACE: { parse: text, default: 'default', description: 'Temporal namespace' },
  TEMPORAL_TASK_QUEUE: { parse: text, default: 'predex', description: 'Task queue of the worker (settlement activities use `{queue}-settlement`)' },
  WORKFLOW_STACK_TRACES: {
    parse: bool,
    default: false,
    description: 'true keeps the Temporal SDK\'s stack-trace recording in the worker\'s workflow threads (the UI\'s Stack Trace tab); off by default, it was half the CPU of replaying a market (docs/matching.md)',
  },
  SETTLEMENT_ACTIVITY_SLOTS: {
    parse: positiveInt,
    default: 4,
    description: 'Settlement activities one worker runs at a time (its own task queue): bounds how much of the store a settlement backlog takes from matching',
  },
  SETTLEMENT_YIELD_MS: {
    parse: nonNegativeInt,
    default: 100,
    description: 'Each of settlement\'s database commands in a worker first waits, up to this many ms, for that worker\'s market steps under way to end (all writes share one store: a step goes first); 0: never waits',
  },
  HANDOFF_LINGER_MS: {
    parse: nonNegativeInt,
    default: 0,
    description: 'A market\'s next hand-off signal from an API process goes out at least this many ms after its previous one (what arrives meanwhile goes with it): fewer, fuller market steps under streams of small requests, at the cost of up to that much on each POST; 0: only while one is in flight',
  },
  HANDOFF_GATHER_MS: {
    parse: nonNegativeInt,
    default: 20,
    description: 'A market\'s hand-off signal waits up to this many ms (from its first order) for orders of other requests to the same market that are already reserved and being written, and goes as soon as they are in: concurrent requests share one signal and one market step; 0: never waits',
  },
  TEMPORAL_PORT: { parse: port, default: 7233, description: 'Embedded Temporal frontend port' },
  TEMPORAL_UI_PORT: { parse: port, default: 8233, description: 'Embedded Temporal Web UI port' },
  TEMPORAL_UI_URL: {
    parse: url,
    description: "Temporal Web UI base URL the market page and the order timeline (npm run ops -- order) link to; unset: the embedded dev server's UI (http://HOST:TEMPORAL_UI_PORT), or no link with an external TEMPORAL_ADDRESS; a UI on a wildcard HOST is named by the host a request reached the API by",
  },
  MONGODB_URI: { parse: url, description: 'External MongoDB URI; unset starts the embedded FerretDB' },
  MONGODB_DB: { parse: text, default: 'predex', description: 'Database name' },
  MONGODB_MAX_POOL_SIZE: {
    parse: positiveInt,
    default: 100,
    description: 'Connections per process to MongoDB (npm start sets 8 for FerretDB, which locks up under ~200 concurrent connections)',
  },
  MONGODB_SLOW_MS: {
    parse: positiveInt,
    description: 'Log every database command slower than this many ms (command, collection, filter field names); unset: off',
  },
  RATE_LIMIT_WINDOW_S: { parse: positiveInt, default: 10, description: 'REST rate limit window, seconds' },
  RATE_LIMIT_PER_WALLET: { parse: nonNegativeInt, default: 1000, description: 'REST requests per window and wallet (JWT or API key), answered 429 RATE_LIMITED beyond; 0: off' },
  RATE_LIMIT_PER_IP: { parse: nonNegativeInt, default: 3000, description: 'REST requests per window and client address, answered 429 RATE_LIMITED beyond; 0: off' },
  STAGE_TIMINGS_S: {
    parse: positiveInt,
    description: 'Log the hot path\'s stage timings (count, mean, max per stage: order entry, market steps, settlement) every this many seconds; unset: off',
  },
  MONGODB_PORT: { parse: port, default: 27017, description: 'Embedded FerretDB port' },
  FERRETDB_GOGC: {
    parse: positiveInt,
    default: 400,
    description: 'Go garbage-collection target (GOGC) of the embedded FerretDB: 400 costs ~15 MB more memory than Go\'s 100 and saves ~20% of its CPU',
  },
  CHAIN_THREAD_NICE: {
    parse: niceValue,
    default: 10,
    description: 'Nice value of the embedded chain\'s EVM threads: it stands in for a node on other machines, so on a shared machine it gives way to the exchange\'s own processes; 0: as they are',
  },
  EMBEDDED_GOMAXPROCS: {
    parse: positiveInt,
    description: 'GOMAXPROCS of the embedded FerretDB and Temporal dev server (cores each runs Go code on at once); unset: half the machine\'s cores, at least 1, as they share it with the API, the worker and the chain',
  },
  EMBEDDED_SQLITE_SYNC: {
    parse: sqliteSync,
    default: 'normal' as 'normal' | 'full',
    description: 'SQLite synchronous setting of the embedded Temporal and FerretDB files (WAL mode): normal fsyncs at checkpoints, so a commit survives any process crash but a power loss can drop the last ones; full also fsyncs the WAL at every commit (docs/foundation.md, "Crash model")',
  },
  SERVICE_NODE: {
    parse: nodeBinary,
    default: 'lts',
    description: 'Node.js the API and the worker run on: lts (Node 24.21.0, fetched once from npm into TOOLS_DIR; the supervisor\'s own Node where it cannot be fetched), current (the supervisor\'s own Node), or an absolute path to a Node binary (checked at start: a path with no executable file stops the start with exit code 2)',
  },
  CHAIN_RPC_URL: { parse: url, description: 'External EVM JSON-RPC URL; unset starts the embedded chain (chain id 56)' },
  CHAIN_ID: { parse: positiveInt, default: 56, description: 'Chain id of the markets' },
  CHAIN_PORT: { parse: port, default: 8545, description: 'Embedded chain JSON-RPC port' },
  CHAIN_CONFIRMATIONS: { parse: nonNegativeInt, default: 1, description: 'Confirmations before a settlement is CONFIRMED' },
  REALTIME_PUSH_PORT: { parse: port, default: 0, description: 'Internal port where workers push realtime events to this API process (0: any free port)' },
  REALTIME_PUSH_URL: { parse: url, description: 'URL workers use to reach this API process\'s push port, when its listen address is not reachable as is (containers)' },
  WS_MAX_CONNECTIONS_PER_ADDRESS: { parse: positiveInt, default: 100, description: 'Realtime connections one client address may hold per API process; more handshakes are refused RATE_LIMITED (docs/realtime.md)' },
  WS_HANDSHAKES_PER_SECOND: { parse: positiveInt, default: 20, description: 'Realtime handshakes one client address may make per second per API process, on average; beyond, refused RATE_LIMITED' },
  WS_HANDSHAKE_BURST: { parse: positiveInt, default: 40, description: 'Realtime handshakes one client address may make at once (the handshake token bucket\'s size)' },
  WS_MESSAGES_PER_SECOND: { parse: positiveInt, default: 20, description: 'subscribe/unsubscribe messages one realtime connection may send per second on average; beyond, RATE_LIMITED and the connection is closed' },
  WS_MESSAGE_BURST: { parse: positiveInt, default: 50, description: 'subscribe/unsubscribe messages one realtime connection may send at once' },
  WS_MEMORY_SHED_PERCENT: {
    parse: percent,
    default: 80,
    description: 'Share of the API process\'s heap limit in use above which it refuses realtime handshakes and closes its newest connections until back under',
  },
  WORKER_METRICS_PORT: {
    parse: port,
    default: 9464,
    description: 'Worker port serving /metrics (its own and the Temporal SDK\'s), /healthz and /readyz on HOST; 0: off (a port in use is logged and skipped)',
  },
  LOCAL_DEV_CHAIN: {
    parse: bool,
    default: false,
    description: 'The chain is the embedded dev chain (set by npm start): re-prepare market conditions and seed a demo market at start',
  },
  DEMO_BOTS: {
    parse: bool,
    default: true,
    description: 'npm start on the embedded chain also runs two market-making bots on the demo market (public client only); false: an empty book',
  },
  OPERATOR_PRIVATE_KEY: { parse: privateKey, secret: true, description: 'Settlement wallet key (embedded chain: a dev key is used; Hardhat\'s public keys stop the start on any other chain)' },
  EXCHANGE_ADDRESS: { parse: address, description: 'Exchange contract (external chain)' },
  COLLATERAL_ADDRESS: { parse: address, description: 'Collateral ERC-20 (external chain)' },
  CONDITIONAL_TOKENS_ADDRESS: { parse: address, description: 'Conditional tokens ERC-1155 (external chain)' },
  AUTH_JWKS_URL: { parse: url, description: 'Identity provider JWKS URL for L1/L2 JWTs' },
  AUTH_JWT_SECRET: { parse: secret32, secret: true, description: 'HS256 secret for JWTs (development and tests); ignored when AUTH_JWKS_URL is set' },
  AUTH_JWT_ISSUER: { parse: text, description: 'Required JWT issuer, when set; required with AUTH_JWKS_URL' },
  AUTH_JWT_AUDIENCE: { parse: text, description: 'Required JWT audience, when set; required with AUTH_JWKS_URL' },
  API_KEY_PEPPER: { parse: secret32, secret: true, description: 'Server pepper mixed into API secret hashes' },
  ADMIN_TOKEN: { parse: secret32, secret: true, description: 'Enables /admin with header x-admin-token; unset disables it' },
} satisfies Record<string, VarSpec<unknown>>;

export type EnvSpec = typeof ENV_SPEC;
export type EnvName = keyof EnvSpec;
