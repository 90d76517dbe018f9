/**
 * Order-entry test harness: the real app and real auth guards (JWT verifier and API-key service
 * stubbed to fixed identities), the real database, a fake chain port and a fake market matcher.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connection } from 'mongoose';
import { zeroAddress, type Address, type Hex } from 'viem';
import { createApp } from '../../src/api/app';
import { createAuthGuards } from '../../src/auth/auth.middleware';
import { devAccounts } from '../../src/chain/local/dev-accounts';
import type { CancelOutcome, MarketMatcher, MarketRef } from '../../src/ports/market-matcher';
import { createMarketModel, type MarketRecord } from '../../src/db/models/market.model';
import { AppError } from '../../src/errors';
import { createLogger } from '../../src/logging/logger';
import { createOrderRouters, type OrderChainPort, type OrderRouters } from '../../src/orders';
import { notCancellable } from '../../src/orders/cancel-orders';
import type { PlaceOrderItem } from '../../src/orders/order.schema';
import { createViemOrderChainPort } from '../../src/orders/viem-chain-port';
import type { DeadManSwitch } from '../../src/heartbeat/dead-man-switch';
import { buildOrder, signOrder, type MarketForSigning } from '../../src/signing';

export const ACCOUNTS = devAccounts();
export const ALICE = ACCOUNTS[1];
export const BOB = ACCOUNTS[2];
export const EXCHANGE = '0x00000000000000000000000000000000000e0c01' as Address;
export const COLLATERAL = '0x00000000000000000000000000000000000c0117' as Address;
export const CTF = '0x0000000000000000000000000000000000000c7f' as Address;
export const ONE = 10n ** 18n;

let conditionCounter = 0;
export function newConditionId(): string {
  conditionCounter += 1;
  return `0x${(Date.now().toString(16) + conditionCounter.toString(16).padStart(6, '0')).padStart(64, 'a')}`;
}

export async function insertMarket(db: Connection, overrides: Partial<MarketRecord> = {}): Promise<MarketRecord> {
  const condition_id = overrides.condition_id ?? newConditionId();
  const now = new Date();
  const market: MarketRecord = {
    chain_id: 56,
    condition_id,
    question_id: null,
    question: 'Will it rain?',
    kind: 'CLOB',
    status: 'OPEN',
    resolution_outcome: null,
    status_version: 0,
    fee_rate_bps: 0,
    summary: { en: 's' },
    rules: { en: 'r' },
    tokens: [
      { outcome: 0, token_id: ((BigInt(condition_id) >> 8n) * 2n).toString(), decimals: 18 },
      { outcome: 1, token_id: ((BigInt(condition_id) >> 8n) * 2n + 1n).toString(), decimals: 18 },
    ],
    collateral_token: COLLATERAL,
    ctf_exchange_address: EXCHANGE,
    conditional_tokens_address: CTF,
    end_date: new Date(now.getTime() + 86_400_000),
    created_at: now,
    updated_at: now,
    ...overrides,
  };
  await createMarketModel(db).create(market);
  return market;
}

export function signingMarket(market: MarketRecord): MarketForSigning {
  return {
    exchange: market.ctf_exchange_address as Address,
    chainId: market.chain_id,
    tokens: market.tokens,
    decimals: market.tokens[0].decimals,
    feeRateBps: market.fee_rate_bps,
  };
}

export interface ItemOptions {
  side?: 'BUY' | 'SELL';
  outcome?: 0 | 1;
  price?: string;
  size?: string;
  orderType?: 'LIMIT' | 'MARKET' | 'GTD';
  expiration?: bigint;
  nonce?: bigint;
  salt?: bigint;
  signatureType?: 0 | 1;
  /** Sign with this key instead of the maker's. */
  signWith?: Hex;
  /** Applied after signing (so it breaks the signature unless re-signed). */
  after?: Partial<PlaceOrderItem>;
}

/** A signed PlaceOrderItem, as a client would build it with src/signing. */
export function signedItem(account: { address: Address; privateKey: Hex }, market: MarketRecord, options: ItemOptions = {}): PlaceOrderItem & { hash: string } {
  const side = options.side ?? 'BUY';
  const built = buildOrder({
    market: signingMarket(market),
    maker: account.address,
    side,
    outcome: options.outcome ?? 1,
    price: options.price ?? '0.5',
    size: options.size ?? '10',
    expiration: options.expiration,
    nonce: options.nonce,
    salt: options.salt,
    signatureType: options.signatureType,
  });
  const signed = signOrder(built, options.signWith ?? account.privateKey);
  return {
    condition_id: market.condition_id,
    chain_id: market.chain_id,
    side,
    order_type: options.orderType ?? 'LIMIT',
    outcome: options.outcome ?? 1,
    price: options.price ?? '0.5',
    size: options.size ?? '10',
    salt: built.order.salt.toString(),
    signer: account.address,
    taker: zeroAddress,
    token_id: built.order.tokenId.toString(),
    maker_amount: built.order.makerAmount.toString(),
    taker_amount: built.order.takerAmount.toString(),
    expiration: built.order.expiration.toString(),
    nonce: built.order.nonce.toString(),
    fee_rate_bps: market.fee_rate_bps,
    signature_type: options.signatureType ?? 0,
    signature: signed.signature,
    hash: signed.orderHash,
    ...options.after,
  };
}

/** Strips the test-only `hash` before sending. */
export function wire(item: PlaceOrderItem & { hash?: string }): PlaceOrderItem {
  const { hash: _hash, ...rest } = item;
  return rest;
}

interface WalletState {
  collateral: bigint;
  allowance: bigint;
  tokens: Map<string, bigint>;
  approved: boolean;
  nonce: bigint;
}

/** A chain port over in-memory balances; counts reads so tests can see the cache work. */
export class FakeChain implements OrderChainPort {
  readonly wallets = new Map<string, WalletState>();
  reads = 0;
  private readonly real = createViemOrderChainPort(() => {
    throw new Error('no client in tests');
  });

  wallet(address: string): WalletState {
    const key = address.toLowerCase();
    let state = this.wallets.get(key);
    if (!state) {
      state = { collateral: 0n, allowance: 0n, tokens: new Map(), approved: false, nonce: 0n };
      this.wallets.set(key, state);
    }
    return state;
  }

  fund(address: string, collateral: bigint, allowance = collateral): void {
    const w = this.wallet(address);
    w.collateral = collateral;
    w.allowance = allowance;
  }

  give(address: string, tokenId: string, units: bigint, approved = true): void {
    const w = this.wallet(address);
    w.tokens.set(tokenId, units);
    w.approved = approved;
  }

  async collateralFunds({ wallet }: { wallet: Address }) {
    this.reads += 1;
    const w = this.wallet(wallet);
    return { balance: w.collateral, allowance: w.allowance };
  }
  async tokenFunds({ wallet, tokenId }: { wallet: Address; tokenId: bigint }) {
    this.reads += 1;
    const w = this.wallet(wallet);
    return { balance: w.tokens.get(tokenId.toString()) ?? 0n, approved: w.approved };
  }
  async makerNonce({ wallet }: { wallet: Address }) {
    this.reads += 1;
    return this.wallet(wallet).nonce;
  }
  /** Contract wallets whose EIP-1271 check accepts any signature. */
  readonly contractWallets = new Set<string>();
  async isValidContractSignature({ wallet }: { wallet: Address }) {
    this.reads += 1;
    return this.contractWallets.has(wallet.toLowerCase());
  }
  cancelOrderCalldata(args: Parameters<OrderChainPort['cancelOrderCalldata']>[0]): Hex {
    return this.real.cancelOrderCalldata(args);
  }
}

/**
 * A matcher that records hand-offs and cancels like the workflow would: live orders of the
 * wallet become CANCELLED with nothing reserved.
 */
export class FakeMatcher implements MarketMatcher {
  /** Each hand-off, with the announcements still out when it came (the submitter's own is withdrawn first). */
  submits: { market: MarketRef; hashes: string[]; announced: number }[] = [];
  cancels: { market: MarketRef; wallet: string; hashes: string[] }[] = [];
  failSubmit = false;
  /** Markets (condition ids) whose cancels fail, as an unreachable Temporal would. */
  failCancelIn = new Set<string>();
  /** Announcements not withdrawn yet (`announce`): order entry must leave none behind. */
  announced = 0;
  /** Announcements made so far. */
  announcements = 0;
  constructor(private readonly db: () => Connection) {}

  announce(): () => void {
    this.announced += 1;
    this.announcements += 1;
    let withdrawn = false;
    return () => {
      if (!withdrawn) this.announced -= 1;
      withdrawn = true;
    };
  }

  /** Runs before a failing submit throws (what happened meanwhile elsewhere). */
  beforeFailedSubmit?: (hashes: string[]) => Promise<unknown>;

  async submit(market: MarketRef, orderHashes: string[]): Promise<void> {
    this.submits.push({ market, hashes: orderHashes, announced: this.announced });
    if (this.failSubmit) {
      await this.beforeFailedSubmit?.(orderHashes);
      throw new Error('temporal is down');
    }
  }

  async cancel(market: MarketRef, wallet: string, orderHashes: string[]): Promise<CancelOutcome> {
    this.cancels.push({ market, wallet, hashes: orderHashes });
    if (this.failCancelIn.has(market.condition_id)) throw new Error('temporal is down');
    const orders = this.db().collection('orders');
    const outcome: CancelOutcome = { cancelled: [], not_cancelled: [] };
    for (const hash of orderHashes) {
      const order = await orders.findOne({ order_hash: hash, wallet });
      if (!order) {
        outcome.not_cancelled.push({ order_hash: hash, error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } });
        continue;
      }
      const refusal = notCancellable({ order_hash: hash, status: order.status as never });
      if (refusal) {
        outcome.not_cancelled.push(refusal);
        continue;
      }
      await orders.updateOne({ order_hash: hash }, { $set: { status: 'CANCELLED', reserved_units: '0', updated_at: new Date() } });
      outcome.cancelled.push(hash);
    }
    return outcome;
  }

  async setStatus(): Promise<void> {}
}

export interface OrderHarness {
  url: string;
  chain: FakeChain;
  matcher: FakeMatcher;
  /** What the routes really use (the fakes unless given in options). */
  realMatcher: MarketMatcher;
  orders: OrderRouters;
  clock: { now: Date | null };
  close(): Promise<void>;
}

/** Bearer token = wallet address (JWT verifier stubbed); API key `read-only:<wallet>` has read only. */
export function asWallet(address: string): Record<string, string> {
  return { authorization: `Bearer ${address}` };
}
export function readOnlyKey(address: string): Record<string, string> {
  return { 'fs-api-key': `read-only:${address}`, 'fs-api-secret': 'secret' };
}

export async function startOrderHarness(
  db: () => Connection,
  options: { balanceTtlMs?: number; matcher?: MarketMatcher; chainPort?: OrderChainPort; cancelPage?: number; deadManSwitch?: DeadManSwitch } = {},
): Promise<OrderHarness> {
  const chain = new FakeChain();
  const matcher = new FakeMatcher(db);
  const clock: { now: Date | null } = { now: null };
  const guards = createAuthGuards({
    jwt: {
      verify: async (token) => {
        if (!/^0x[0-9a-fA-F]{40}$/.test(token)) throw new AppError('AUTH_INVALID');
        return { wallet: token.toLowerCase() };
      },
    },
    apiKeys: {
      authenticate: async (keyId) => {
        const [kind, wallet] = keyId.split(':');
        if (kind !== 'read-only' || !wallet) throw new AppError('AUTH_INVALID');
        return { wallet: wallet.toLowerCase(), keyId, permissions: ['read'], secretIssuedAt: new Date(0) };
      },
    },
    usage: { mark: () => undefined },
  });
  const orders = createOrderRouters({
    connection: db(),
    matcher: options.matcher ?? matcher,
    chain: options.chainPort ?? chain,
    requireL2: (permission) => guards.requireL2(permission),
    clock: () => clock.now ?? new Date(),
    balanceTtlMs: options.balanceTtlMs ?? 0,
    cancelPage: options.cancelPage,
    deadManSwitch: options.deadManSwitch,
  });
  const app = createApp({ logger: createLogger({ level: 'silent' }), readiness: [], v1Routers: orders.routers });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    chain,
    matcher,
    realMatcher: options.matcher ?? matcher,
    orders,
    clock,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Response {
  status: number;
  body: any;
}

export async function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Response> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export function place(h: OrderHarness, wallet: string, orders: PlaceOrderItem[], headers: Record<string, string> = {}): Promise<Response> {
  return call(`${h.url}/v1/orders`, { method: 'POST', headers: { ...asWallet(wallet), ...headers }, body: { orders: orders.map(wire) } });
}
