import type { Address } from 'viem';
import type { HttpTransport } from './http-transport';
import { signOrderItem, type OrderInput, type OrderSigner } from './order-signing';
import { pollUntil } from './poll-until';
import { PredexError } from './predex-error';
import type { CancelOnchain, CancelOrdersBody, CancelOrdersResponse, ListOrdersQuery, Market, OrderRecord, OrderPage, PlaceOrdersResponse, PlaceResult } from './types';

export type PlacedOrder = Extract<PlaceResult, { order_hash: string }>;
export type Rejection = Extract<PlaceResult, { error: unknown }>;

/** What to cancel: hashes, your client order ids, every open order of a market (optionally one side/outcome), or all. */
export type CancelTarget =
  | { order_hashes: string[] }
  | { client_order_ids: string[] }
  | { market: string; chain_id?: number; side?: 'BUY' | 'SELL'; outcome?: 0 | 1 }
  | 'all';

export interface OrdersDeps {
  http: HttpTransport;
  signer: () => OrderSigner;
  market: (conditionId: string) => Promise<Market>;
}

const TERMINAL = new Set(['FILLED', 'CANCELLED', 'EXPIRED', 'MATCH_FAILED']);
const MAX_BATCH = 15;

function isRejection(result: PlaceResult): result is Rejection {
  return 'error' in result;
}

/** The server's current nonce, when a rejection names it (the exchange's nonce moved on chain). */
function nonceHint(result: PlaceResult): bigint | undefined {
  if (!isRejection(result) || result.error.code !== 'INVALID_ORDER') return undefined;
  const nonce = (result.error.details as { nonce?: unknown } | undefined)?.nonce;
  return typeof nonce === 'string' && /^\d+$/.test(nonce) ? BigInt(nonce) : undefined;
}

export class OrdersApi {
  /** Current exchange nonce per (exchange, wallet); 0 until the server says otherwise. */
  private readonly nonces = new Map<string, bigint>();

  constructor(private readonly deps: OrdersDeps) {}

  private nonceKey(market: Market, wallet: Address): string {
    return `${market.ctf_exchange_address.toLowerCase()}|${wallet.toLowerCase()}`;
  }

  /**
   * Signs and places up to 15 orders in one request. Returns one result per order, in order;
   * a rejected order is an `{error}` item, as the server answers it. Orders rejected because the
   * wallet's exchange nonce moved are signed again with the nonce the server names, once.
   */
  async placeMany(inputs: OrderInput[], options: { idempotencyKey?: string } = {}): Promise<PlaceResult[]> {
    if (inputs.length < 1 || inputs.length > MAX_BATCH) throw new PredexError({ code: 'BATCH_SIZE_EXCEEDED', message: `a placement takes 1 to ${MAX_BATCH} orders, got ${inputs.length}` });
    const signer = this.deps.signer();
    const markets = await Promise.all(inputs.map((input) => this.deps.market(input.market)));
    const sign = () => Promise.all(inputs.map((input, i) => signOrderItem(markets[i], input, signer, this.nonces.get(this.nonceKey(markets[i], signer.address)) ?? 0n)));
    const post = async () => {
      const items = await sign();
      const headers = options.idempotencyKey ? { 'fs-idempotency-key': options.idempotencyKey } : undefined;
      return (await this.deps.http.request<PlaceOrdersResponse>('POST', '/orders', { tier: 'L2', body: { orders: items.map((s) => s.item) }, headers })).results;
    };
    let results = await post();
    const hints = results.map(nonceHint);
    if (hints.some((h) => h !== undefined) && !options.idempotencyKey) {
      hints.forEach((hint, i) => hint !== undefined && this.nonces.set(this.nonceKey(markets[i], signer.address), hint));
      results = await post();
    }
    return results;
  }

  /** Signs and places one order; a rejection throws a PredexError with the server's code and message. */
  async place(input: OrderInput, options: { idempotencyKey?: string } = {}): Promise<PlacedOrder> {
    const [result] = await this.placeMany([input], options);
    if (isRejection(result)) {
      throw new PredexError({ code: result.error.code as PredexError['code'], message: result.error.message, status_code: 200, details: result.error.details, path: '/v1/orders' });
    }
    return result;
  }

  list(query: ListOrdersQuery = {}): Promise<OrderPage> {
    return this.deps.http.request('GET', '/orders', { tier: 'L2', query });
  }

  get(orderHash: string): Promise<OrderRecord> {
    return this.deps.http.request('GET', `/orders/${orderHash}`, { tier: 'L2' });
  }

  cancel(target: CancelTarget): Promise<CancelOrdersResponse> {
    let body: CancelOrdersBody;
    if (target === 'all') body = { all: true };
    else if ('market' in target) body = { filter: { condition_id: target.market, chain_id: target.chain_id, side: target.side, outcome: target.outcome } };
    else body = target;
    return this.deps.http.request('POST', '/orders/cancel', { tier: 'L2', body: JSON.parse(JSON.stringify(body)) as CancelOrdersBody });
  }

  /** Calldata for cancelling the order on chain yourself (the service does not send it). */
  cancelOnchain(orderHash: string): Promise<CancelOnchain> {
    return this.deps.http.request('POST', `/orders/${orderHash}/cancel-onchain`, { tier: 'L2' });
  }

  /**
   * Polls the order until `done` says so (by default: a terminal status), calling `onProgress`
   * with each new status. Matching and settlement are asynchronous; the `user` channel pushes
   * the same changes without polling.
   */
  async waitFor(
    orderHash: string,
    options: { done?: (order: OrderRecord) => boolean; timeoutMs?: number; everyMs?: number; onProgress?: (order: OrderRecord) => void } = {},
  ): Promise<OrderRecord> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    return pollUntil(() => this.get(orderHash), {
      done: options.done ?? ((o) => TERMINAL.has(o.status)), timeoutMs, everyMs: options.everyMs, onProgress: options.onProgress,
      late: (order) => new PredexError({ code: 'TIMEOUT', message: `order ${orderHash} is still ${order.status} after ${timeoutMs} ms`, details: { status: order.status } }),
    });
  }
}
