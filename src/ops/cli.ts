import { parseArgs } from 'node:util';
import { timelineLines } from './timeline-lines';
import type { OrderTimeline } from './order-timeline';

/**
 * Operator CLI: talks to the admin HTTP API of a running service.
 *   npm run ops -- create-market --question "..." --end-date 2027-01-01T00:00:00Z [--fee-rate-bps 0]
 *        [--summary-en ..] [--summary-cn ..] [--rules-en ..] [--rules-cn ..] [--kind CLOB|AMM]
 *        [--status OPEN|PAUSED|SEEDING|CLOSED] [--condition-id 0x..] [--chain-id 56]
 *   npm run ops -- set-status <condition_id> <open|paused|closed|resolved> [--outcome 0|1] [--chain-id 56]
 *   npm run ops -- list-markets [--status all|open|...] [--chain-id 56]
 *   npm run ops -- amm-create --question "..." [--liquidity 1000] [--fee-rate-bps 0] [--end-date ISO] [--chain-id 56]
 *   npm run ops -- fund <condition_id> <amount> [--chain-id 56]
 *   npm run ops -- pause|close|reopen <condition_id> [--chain-id 56]
 *   npm run ops -- resolve <condition_id> <yes|no|1|0> [--chain-id 56]
 *   npm run ops -- order <order_hash> [--json]
 * Environment: OPS_BASE_URL (default http://127.0.0.1:$PORT, PORT default 8080), ADMIN_TOKEN
 * (required), OPS_OPERATOR (name recorded in the audit trail; default $USER).
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  fetch: typeof fetch;
  out(line: string): void;
  err(line: string): void;
}

const USAGE = [
  'usage: npm run ops -- <command>',
  '  create-market --question <text> --end-date <ISO date> [--fee-rate-bps n] [--summary-en t] [--summary-cn t]',
  '                [--rules-en t] [--rules-cn t] [--kind CLOB|AMM] [--status OPEN|PAUSED|SEEDING|CLOSED] [--condition-id 0x..] [--chain-id n]',
  '  set-status <condition_id> <open|paused|closed|resolved> [--outcome 0|1] [--chain-id n]',
  '  list-markets [--status all|open|paused|closed|resolved|seeding] [--chain-id n]',
  '  amm-create --question <text> [--liquidity <collateral>] [--fee-rate-bps n] [--end-date <ISO date>] [--chain-id n]',
  '  fund <condition_id> <amount>          add collateral to an AMM market\'s pool',
  '  pause|close|reopen <condition_id>     a market\'s status (an AMM pool follows on chain)',
  '  resolve <condition_id> <yes|no|1|0>   resolve; payouts are reported on chain',
  '  order <order_hash> [--json]    the order\'s timeline, each step with its Temporal UI link',
  'env: OPS_BASE_URL, ADMIN_TOKEN, OPS_OPERATOR',
].join('\n');

class UsageError extends Error {}

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer`);
  return Number(value);
}

function translated(en: string | undefined, cn: string | undefined, name: string): { en: string; cn?: string } | undefined {
  if (en === undefined && cn === undefined) return undefined;
  if (en === undefined) throw new UsageError(`--${name}-cn needs --${name}-en`);
  return cn === undefined ? { en } : { en, cn };
}

const marketPath = (conditionId: string) => `/admin/markets/${encodeURIComponent(conditionId)}`;

interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Lines to print for the answer, instead of its JSON. */
  format?: (body: unknown) => string[];
}

function buildRequest(argv: string[]): Request {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      question: { type: 'string' },
      'end-date': { type: 'string' },
      'fee-rate-bps': { type: 'string' },
      'summary-en': { type: 'string' },
      'summary-cn': { type: 'string' },
      'rules-en': { type: 'string' },
      'rules-cn': { type: 'string' },
      kind: { type: 'string' },
      status: { type: 'string' },
      'condition-id': { type: 'string' },
      'chain-id': { type: 'string' },
      outcome: { type: 'string' },
      liquidity: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const chainId = integer(values['chain-id'], 'chain-id');
  const chainQuery = chainId === undefined ? '' : `chain_id=${chainId}`;
  switch (command) {
    case 'create-market': {
      if (!values.question || !values['end-date']) throw new UsageError('create-market needs --question and --end-date');
      const body: Record<string, unknown> = { question: values.question, end_date: values['end-date'] };
      if (chainId !== undefined) body.chain_id = chainId;
      if (values.kind) body.kind = values.kind.toUpperCase();
      if (values.status) body.status = values.status.toUpperCase();
      if (values['fee-rate-bps'] !== undefined) body.fee_rate_bps = integer(values['fee-rate-bps'], 'fee-rate-bps');
      if (values['condition-id']) body.condition_id = values['condition-id'];
      const summary = translated(values['summary-en'], values['summary-cn'], 'summary');
      const rules = translated(values['rules-en'], values['rules-cn'], 'rules');
      if (summary) body.summary = summary;
      if (rules) body.rules = rules;
      return { method: 'POST', path: '/admin/markets', body };
    }
    case 'set-status': {
      const [conditionId, status] = positionals;
      if (!conditionId || !status) throw new UsageError('set-status needs <condition_id> <status>');
      const body: Record<string, unknown> = { status: status.toUpperCase() };
      if (values.outcome !== undefined) body.resolution_outcome = integer(values.outcome, 'outcome');
      return { method: 'POST', path: `${marketPath(conditionId)}/status${chainQuery ? `?${chainQuery}` : ''}`, body };
    }
    case 'amm-create': {
      if (!values.question) throw new UsageError('amm-create needs --question');
      // An AMM market needs no end date to trade; a year ahead unless the operator names one.
      const endDate = values['end-date'] ?? new Date(Date.now() + 365 * 86_400_000).toISOString();
      const body: Record<string, unknown> = { kind: 'AMM', question: values.question, end_date: endDate };
      if (chainId !== undefined) body.chain_id = chainId;
      if (values.liquidity !== undefined) body.initial_liquidity = values.liquidity;
      if (values['fee-rate-bps'] !== undefined) body.fee_rate_bps = integer(values['fee-rate-bps'], 'fee-rate-bps');
      return { method: 'POST', path: '/admin/markets', body };
    }
    case 'fund': {
      const [conditionId, amount] = positionals;
      if (!conditionId || !amount) throw new UsageError('fund needs <condition_id> <amount>');
      return { method: 'POST', path: `${marketPath(conditionId)}/liquidity${chainQuery ? `?${chainQuery}` : ''}`, body: { amount } };
    }
    case 'pause':
    case 'close':
    case 'reopen': {
      const [conditionId] = positionals;
      if (!conditionId) throw new UsageError(`${command} needs <condition_id>`);
      const status = { pause: 'PAUSED', close: 'CLOSED', reopen: 'OPEN' }[command];
      return { method: 'POST', path: `${marketPath(conditionId)}/status${chainQuery ? `?${chainQuery}` : ''}`, body: { status } };
    }
    case 'resolve': {
      const [conditionId, outcome] = positionals;
      const resolution = { yes: 1, '1': 1, no: 0, '0': 0 }[(outcome ?? '').toLowerCase()];
      if (!conditionId || resolution === undefined) throw new UsageError('resolve needs <condition_id> <yes|no|1|0>');
      return { method: 'POST', path: `${marketPath(conditionId)}/status${chainQuery ? `?${chainQuery}` : ''}`, body: { status: 'RESOLVED', resolution_outcome: resolution } };
    }
    case 'list-markets': {
      const query = [values.status ? `status=${encodeURIComponent(values.status)}` : '', chainQuery].filter(Boolean).join('&');
      return { method: 'GET', path: `/admin/markets${query ? `?${query}` : ''}` };
    }
    case 'order': {
      const [hash] = positionals;
      if (!hash || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new UsageError('order needs <order_hash> (0x and 64 hex digits)');
      const request: Request = { method: 'GET', path: `/admin/orders/${hash.toLowerCase()}/timeline` };
      if (!values.json) request.format = (body) => timelineLines(body as OrderTimeline);
      return request;
    }
    default:
      throw new UsageError(command ? `unknown command '${command}'` : 'missing command');
  }
}

/** Runs one CLI command; returns the process exit code (0 ok, 1 API error, 2 usage). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let request: Request;
  try {
    request = buildRequest(argv);
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const token = io.env.ADMIN_TOKEN;
  if (!token) {
    io.err('ADMIN_TOKEN is not set');
    return 2;
  }
  const base = (io.env.OPS_BASE_URL ?? `http://127.0.0.1:${io.env.PORT ?? '8080'}`).replace(/\/$/, '');
  const operator = io.env.OPS_OPERATOR ?? io.env.USER ?? 'ops-cli';
  const headers: Record<string, string> = { 'x-admin-token': token, 'x-operator': operator };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const pages: unknown[] = [];
  let path = request.path;
  for (;;) {
    let res: Response;
    try {
      res = await io.fetch(`${base}${path}`, { method: request.method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body) });
    } catch (error) {
      io.err(`cannot reach ${base}: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    const body = (await res.json().catch(() => null)) as { code?: string; message?: string; data?: unknown[]; has_more?: boolean; next_cursor?: string } | null;
    if (!res.ok) {
      io.err(`${res.status} ${body?.code ?? ''}: ${body?.message ?? 'request failed'}`);
      return 1;
    }
    if (request.format) {
      for (const line of request.format(body)) io.out(line);
      return 0;
    }
    if (request.method === 'GET' && Array.isArray(body?.data)) {
      pages.push(...body.data);
      if (body.has_more && body.next_cursor) {
        path = `${request.path}${request.path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(body.next_cursor)}`;
        continue;
      }
      io.out(JSON.stringify(pages, null, 2));
      return 0;
    }
    io.out(JSON.stringify(body, null, 2));
    return 0;
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2), {
    env: process.env,
    fetch,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
