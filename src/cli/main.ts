#!/usr/bin/env node
/**
 * `predex`: the trader's command line, built on the public client only. Human output by default,
 * `--json` for scripts; exit codes in error-hints.ts; every error prints the server's code, its
 * message and what to do, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { privateKeyToAccount } from 'viem/accounts';
import { createPredexClient, PredexError } from '../client';
import { Cli, OPTIONS, out, progress, usage } from './cli-context';
import { writeCredentials, type StoredCredentials } from './credentials-file';
import { devJwt, devJwtSecret } from './dev-jwt';
import { describeError, EXIT, exitCodeOf } from './error-hints';
import { localPlatformKey, localRpcUrl } from './local-stack';
import { depth, table } from './render';
import { poolTrade, quote } from './trade-commands';

const USAGE = `usage: predex <command> [options]

  markets [--status open|closed|resolved|paused]   list markets
  book <market> [--watch] [--depth N]              the book (YES prices); --watch redraws it live
  buy|sell <market> <size> [price] [--outcome yes|no] [--type limit|market|fok|gtd]
           [--post-only] [--client-id ID] [--expires SECONDS] [--wait]
                                                   place an order (market/fok: price is the worst accepted)
  buy|sell <AMM market> <amount> [--outcome yes|no] [--slippage BPS] [--rpc URL]
                                                   trade with the pool from your wallet (buy: collateral to
                                                   spend; sell: shares to sell); waits until it is on chain
  quote <market> <buy|sell> <yes|no> <amount>      what a trade gets now, from the pool or the book
  cancel [order_hash...] [--client-id ID] [--market M] [--all]
  orders [--status open|filled|cancelled|all] [--market M]
  fills | positions | balances
  watch [--market M]                               your order and fill events (and M's trades) as lines
  login --key 0x<private key> [--jwt JWT] [--rpc URL] [--platform-key K --platform-secret S]
                                                   API key for the wallet (local stack: dev JWT, and a
                                                   platform key and the chain's RPC URL for AMM trades)

  <market> is a condition id or a unique prefix of one.
  Global: --url URL (default $PREDEX_URL, the login's, or http://127.0.0.1:8080), --json
  Exit codes: 0 done, 1 the exchange refused, 2 bad usage, 3 exchange unreachable or failing, 4 not logged in`;

async function markets(cli: Cli): Promise<void> {
  const page = await cli.client.markets.list({ status: cli.flags.status as never, limit: 100 });
  cli.print(page, () => table(page.data.map((m) => ({ market: m.condition_id, status: m.status, bid: m.ticker?.bestBid, ask: m.ticker?.bestAsk, last: m.ticker?.lastPrice, question: m.question })), ['market', 'status', 'bid', 'ask', 'last', 'question']));
}

async function book(cli: Cli, id?: string): Promise<void> {
  const market = await cli.market(id);
  const levels = Number(cli.flags.depth ?? 10);
  if (!cli.flags.watch) {
    const snapshot = await cli.client.markets.book(market.condition_id, levels);
    cli.print(snapshot, () => `${market.question}\n${depth(snapshot, levels)}`);
    return;
  }
  await cli.client.subscribe.book(market.condition_id, (view) => {
    if (cli.flags.json) return out(JSON.stringify(view));
    process.stdout.write(`\x1b[2J\x1b[H${market.question}  (seq ${view.seq}, Ctrl-C to stop)\n${depth(view, levels)}\n`);
  }, { onGap: (gap) => progress(`book gap (expected ${gap.expected}, got ${gap.got}): fetching it again`), onError: (e) => describeError(e).forEach(progress) });
  await new Promise(() => undefined);
}

async function place(cli: Cli, side: 'BUY' | 'SELL', id?: string, size?: string, price?: string): Promise<void> {
  const market = await cli.market(id);
  // Only an AMM market's view carries its pool.
  if (market.amm) return poolTrade(cli, side, market, size, price);
  if (!size) throw usage(`${side.toLowerCase()} needs a size: predex ${side.toLowerCase()} <market> <size> [price]`);
  const type = (cli.flags.type ?? 'limit').toUpperCase() as 'LIMIT' | 'MARKET' | 'FOK' | 'GTD';
  if (!['LIMIT', 'MARKET', 'FOK', 'GTD'].includes(type)) throw usage(`--type is limit, market, fok or gtd, not ${cli.flags.type}`);
  if (!price && (type === 'LIMIT' || type === 'GTD')) throw usage(`a ${type.toLowerCase()} order needs a price`);
  const outcome = (cli.flags.outcome ?? 'yes').toUpperCase();
  if (outcome !== 'YES' && outcome !== 'NO') throw usage(`--outcome is yes or no, not ${cli.flags.outcome}`);
  const expiration = cli.flags.expires ? Math.floor(Date.now() / 1000) + Number(cli.flags.expires) : undefined;
  const placed = await cli.client.orders.place({
    market: market.condition_id, side, outcome, size, type, expiration, post_only: cli.flags['post-only'], client_order_id: cli.flags['client-id']?.[0],
    price: price ?? (side === 'BUY' ? '1' : '0.01'),
  });
  if (!cli.flags.wait) {
    cli.print(placed, () => `placed ${placed.order_hash}: ${side} ${size} ${outcome} @ ${placed.price} (${type}), ${placed.status}`);
    return;
  }
  if (!cli.flags.json) progress(`placed ${placed.order_hash}; waiting for the match and the chain...`);
  const final = await cli.client.orders.waitFor(placed.order_hash, {
    timeoutMs: 120_000,
    done: (o) => !['OPEN', 'PARTIALLY_FILLED', 'MATCHED'].includes(o.status) || (type === 'LIMIT' || type === 'GTD') && o.status === 'OPEN' && o.book_added_at !== null && o.remaining_size === o.size,
    onProgress: (o) => cli.flags.json || progress(`  ${o.status}${o.status === 'MATCHED' ? ' (settling on chain...)' : ''}`),
  });
  cli.print(final, () => `${final.order_hash} ${final.status}${final.status_reason ? ` (${final.status_reason})` : ''}: ${final.size} @ ${final.price}, ${final.remaining_size} left`);
}

async function cancel(cli: Cli, hashes: string[]): Promise<void> {
  const f = cli.flags;
  const target = f.all ? 'all' as const
    : f['client-id'] ? { client_order_ids: f['client-id'] }
      : f.market ? { market: (await cli.market(f.market)).condition_id }
        : hashes.length ? { order_hashes: hashes } : undefined;
  if (!target) throw usage('cancel what? order hashes, --client-id, --market or --all');
  const result = await cli.client.orders.cancel(target);
  cli.print(result, () => [`cancelled ${result.cancelled.length}`, ...result.cancelled.map((h) => `  ${h}`), ...result.not_cancelled.map((n) => `  not ${n.order_hash}: ${n.error.code} ${n.error.message}`)].join('\n'));
  if (result.not_cancelled.length > 0 && result.cancelled.length === 0) process.exitCode = EXIT.REFUSED;
}

async function lists(cli: Cli, what: 'orders' | 'fills' | 'positions' | 'balances'): Promise<void> {
  const f = cli.flags;
  const condition = f.market ? (await cli.market(f.market)).condition_id : undefined;
  if (what === 'orders') {
    const page = await cli.client.orders.list({ status: f.status as never, condition_id: condition, limit: 100 });
    cli.print(page, () => table(page.data.map((o) => ({ ...o, outcome: o.outcome === 1 ? 'YES' : 'NO' })), ['order_hash', 'side', 'outcome', 'price', 'size', 'remaining_size', 'status', 'status_reason']));
  } else if (what === 'fills') {
    const page = await cli.client.fills.list({ condition_id: condition, limit: 100 });
    cli.print(page, () => table(page.data.map((x) => ({ ...x, outcome: x.outcome === 1 ? 'YES' : 'NO' })), ['trade_id', 'role', 'side', 'outcome', 'price', 'size', 'fee', 'settlement_status', 'tx_hash']));
  } else if (what === 'positions') {
    const page = await cli.client.positions.list({ condition_id: condition, limit: 100 });
    cli.print(page, () => table(page.data, ['condition_id', 'outcome_label', 'size', 'avg_price', 'current_value', 'realized_pnl', 'status']));
  } else {
    const b = await cli.client.balances.get();
    cli.print(b, () => [
      `collateral ${b.collateral?.token ?? '-'}: balance ${b.collateral?.balance ?? '-'}, reserved ${b.collateral?.reserved ?? '-'}, available ${b.collateral?.available ?? '-'}`,
      table(b.tokens, ['condition_id', 'outcome', 'balance', 'reserved', 'available']),
    ].join('\n'));
  }
}

async function watch(cli: Cli): Promise<void> {
  const line = (text: string, value: unknown) => out(cli.flags.json ? JSON.stringify(value) : `${new Date().toISOString().slice(11, 19)} ${text}`);
  const onError = (e: PredexError) => describeError(e).forEach(progress);
  await cli.client.subscribe.user((event) => {
    if (event.type === 'order' && 'order' in event) {
      const o = event.order as { order_hash: string; side: string; size: string; price: string; status: string; remaining_size: string; status_reason?: string | null };
      line(`order ${o.order_hash.slice(0, 10)} ${o.side} ${o.size} @ ${o.price}: ${o.status}${o.status_reason ? ` (${o.status_reason})` : ''}, ${o.remaining_size} left`, event);
    } else if (event.type === 'fill' && 'fill' in event) {
      const x = event.fill as { trade_id: string; role: string; side: string; size: string; price: string; settlement_status: string; tx_hash: string };
      line(`fill ${x.trade_id} ${x.role} ${x.side} ${x.size} @ ${x.price}: ${x.settlement_status}${x.tx_hash ? ` tx ${x.tx_hash}` : ''}`, event);
    } else line(`${event.type} ${JSON.stringify(event)}`, event);
  }, { onError });
  if (cli.flags.market) {
    const market = await cli.market(cli.flags.market);
    await cli.client.subscribe.trades(market.condition_id, (t) => line(`trade ${t.size} @ ${t.price}`, { type: 'trade', trade: t }), { onError });
  }
  if (!cli.flags.json) progress('watching (Ctrl-C to stop)');
  await new Promise(() => undefined);
}

async function login(cli: Cli): Promise<void> {
  const key = cli.flags.key ?? process.env.PREDEX_PRIVATE_KEY;
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) throw usage('login needs the wallet\'s key: --key 0x<64 hex> (or PREDEX_PRIVATE_KEY)');
  const wallet = privateKeyToAccount(key as `0x${string}`).address;
  const jwt = cli.flags.jwt ?? devJwt(wallet, devJwtSecret(process.env));
  const issued = await createPredexClient({ baseUrl: cli.url, jwt }).auth.createApiKey(['read', 'trade']);
  const f = cli.flags;
  const platform = f['platform-key'] && f['platform-secret']
    ? { platformKey: f['platform-key'], platformSecret: f['platform-secret'] }
    : await localPlatformKey(cli.url, process.env, `predex cli ${wallet}`);
  const rpcUrl = f.rpc ?? process.env.PREDEX_RPC_URL ?? localRpcUrl(process.env);
  const stored: StoredCredentials = {
    url: cli.url, wallet, private_key: key as `0x${string}`, api_key: issued.key_id, api_secret: issued.secret,
    platform_key: platform?.platformKey, platform_secret: platform?.platformSecret, rpc_url: rpcUrl,
  };
  const file = writeCredentials(stored);
  cli.print({ wallet, key_id: issued.key_id, secret: issued.secret, platform_key: platform?.platformKey ?? null, rpc_url: rpcUrl ?? null, credentials_file: file }, () => [
    `logged in as ${wallet} on ${cli.url}`, `API key ${issued.key_id}`, `secret ${issued.secret}  (shown once; kept in ${file}, mode 0600)`,
    platform ? `platform key ${platform.platformKey} (AMM trades)` : 'no platform key: AMM trades need --platform-key and --platform-secret from the operator',
    rpcUrl ? `chain ${rpcUrl}` : 'no chain RPC URL: AMM trades need --rpc URL',
  ].join('\n'));
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  if (!command || command === 'help' || values.help) return out(USAGE);
  const cli = new Cli(values);
  switch (command) {
    case 'markets': return markets(cli);
    case 'book': return book(cli, rest[0]);
    case 'buy': return place(cli, 'BUY', rest[0], rest[1], rest[2]);
    case 'sell': return place(cli, 'SELL', rest[0], rest[1], rest[2]);
    case 'cancel': return cancel(cli, rest);
    case 'orders': case 'fills': case 'positions': case 'balances': return lists(cli, command);
    case 'quote': return quote(cli, rest);
    case 'watch': return watch(cli);
    case 'login': return login(cli);
    default: throw usage(`unknown command ${command}`);
  }
}

run(process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? EXIT.OK),
  (error: unknown) => {
    if (error instanceof PredexError) {
      describeError(error).forEach(progress);
      process.exit(exitCodeOf(error));
    }
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      progress(`error: ${(error as Error).message}\n${USAGE}`);
      process.exit(EXIT.USAGE);
    }
    progress(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(EXIT.UNAVAILABLE);
  },
);
