/**
 * The typed client of the predex REST API (/v1 and /trade) and realtime gateway (/v1/ws). It pulls in no
 * server code: HTTP is `fetch`, realtime is socket.io-client, signing is viem.
 */
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { HttpTransport, type Credentials } from './http-transport';
import type { OrderSigner } from './order-signing';
import { OrdersApi } from './orders-api';
import { PredexError } from './predex-error';
import { RealtimeConnection } from './realtime';
import { Subscriptions } from './subscriptions';
import { TradeApi } from './trade-api';
import type {
  ApiKeyList, ApiKeyMetadata, Balances, BalancesQuery, BookSnapshot, Candles, CandlesQuery, FillPage, HeartbeatResponse, IssuedApiKey,
  ListFillsQuery, ListMarketsQuery, ListPositionsQuery, Market, MarketPage, Permission, PositionPage, Ticker, TradePage, WsToken,
} from './types';

export interface PredexClientOptions extends Credentials {
  /** Where the API listens, e.g. http://127.0.0.1:8080 (without /v1). */
  baseUrl: string;
  /** Signs orders: a private key, or any signer of EIP-712 typed data (a viem account). */
  privateKey?: Hex;
  signer?: OrderSigner;
  /** Chain of the markets (56 by default). */
  chainId?: number;
  fetch?: typeof fetch;
}

/** How long a market read for signing is reused: its exchange, tokens and fee do not move. */
const MARKET_CACHE_MS = 60_000;

export class PredexClient {
  readonly http: HttpTransport;
  readonly chainId: number;
  readonly signer?: OrderSigner;
  private realtime?: RealtimeConnection;
  private readonly marketCache = new Map<string, { at: number; market: Promise<Market> }>();

  constructor(private readonly options: PredexClientOptions) {
    this.http = new HttpTransport(options);
    this.chainId = options.chainId ?? 56;
    this.signer = options.signer ?? (options.privateKey ? privateKeyToAccount(options.privateKey) : undefined);
    this.orders = new OrdersApi({
      http: this.http,
      market: (conditionId) => this.cachedMarket(conditionId),
      signer: () => {
        if (!this.signer) throw new PredexError({ code: 'CLIENT_INPUT', message: 'placing orders needs a signer: pass privateKey or signer to the client' });
        return this.signer;
      },
    });
    this.subscribe = new Subscriptions(() => this.connection(), this.chainId);
    this.trade = new TradeApi(this.http, this.chainId, async (conditionId) => (await this.cachedMarket(conditionId)).tokens[0]?.decimals ?? 18);
  }

  /** Place, list, cancel and follow the wallet's orders. */
  readonly orders: OrdersApi;
  /** Live book (with gap detection), ticker, trades and the wallet's own events. */
  readonly subscribe: Subscriptions;
  /** The /trade routes: quotes and trades on both market kinds, AMM pool trades from a wallet client. */
  readonly trade: TradeApi;

  private chain = () => ({ chain_id: this.chainId });

  readonly markets = {
    list: (query: ListMarketsQuery = {}): Promise<MarketPage> => this.http.request('GET', '/markets', { tier: 'L0', query: { chain_id: this.chainId, ...query } }),
    get: (conditionId: string): Promise<Market> => this.http.request('GET', `/markets/${conditionId}`, { tier: 'L0', query: this.chain() }),
    book: (conditionId: string, depth?: number): Promise<BookSnapshot> => this.http.request('GET', `/markets/${conditionId}/book`, { tier: 'L0', query: { ...this.chain(), depth } }),
    ticker: (conditionId: string): Promise<Ticker> => this.http.request('GET', `/markets/${conditionId}/ticker`, { tier: 'L0', query: this.chain() }),
    trades: (conditionId: string, page: { cursor?: string; limit?: number } = {}): Promise<TradePage> =>
      this.http.request('GET', `/markets/${conditionId}/trades`, { tier: 'L0', query: { ...this.chain(), ...page } }),
    candles: (conditionId: string, query: Omit<CandlesQuery, 'chain_id'>): Promise<Candles> =>
      this.http.request('GET', `/markets/${conditionId}/candles`, { tier: 'L0', query: { ...this.chain(), ...query } }),
  };

  /** A market as signing needs it, read once a minute at most. */
  private cachedMarket(conditionId: string): Promise<Market> {
    const key = conditionId.toLowerCase();
    const hit = this.marketCache.get(key);
    if (hit && Date.now() - hit.at < MARKET_CACHE_MS) return hit.market;
    const market = this.markets.get(conditionId);
    market.catch(() => this.marketCache.delete(key));
    this.marketCache.set(key, { at: Date.now(), market });
    return market;
  }

  readonly fills = {
    list: (query: ListFillsQuery = {}): Promise<FillPage> => this.http.request('GET', '/fills', { tier: 'L2', query: query as Record<string, string> }),
  };

  readonly positions = {
    list: (query: ListPositionsQuery = {}): Promise<PositionPage> => this.http.request('GET', '/positions', { tier: 'L2', query }),
  };

  readonly balances = {
    get: (query: BalancesQuery = {}): Promise<Balances> => this.http.request('GET', '/balances', { tier: 'L2', query: { ...this.chain(), ...query } }),
  };

  /** Arms (or re-arms) the dead-man switch: no heartbeat within `timeoutS` cancels every open order. 0 disarms. */
  heartbeat(timeoutS: number): Promise<HeartbeatResponse> {
    return this.http.request('POST', '/heartbeat', { tier: 'L2', body: { timeout_s: timeoutS } });
  }

  readonly auth = {
    createApiKey: (permissions: Permission[] = ['read']): Promise<IssuedApiKey> => this.http.request('POST', '/auth/api-keys', { tier: 'L1', body: { permissions } }),
    listApiKeys: (): Promise<ApiKeyList> => this.http.request('GET', '/auth/api-keys', { tier: 'L1' }),
    revokeApiKey: (keyId: string): Promise<ApiKeyMetadata> => this.http.request('DELETE', `/auth/api-keys/${keyId}`, { tier: 'L1' }),
    regenerateApiKey: (keyId: string): Promise<IssuedApiKey> => this.http.request('POST', `/auth/api-keys/${keyId}/regenerate`, { tier: 'L1' }),
    wsToken: (): Promise<WsToken> => this.http.request('POST', '/auth/ws-token', { tier: 'L2' }),
  };

  private connection(): RealtimeConnection {
    const { apiKey, apiSecret, jwt } = this.options;
    const authenticated = Boolean((apiKey && apiSecret) || jwt);
    this.realtime ??= new RealtimeConnection(this.http.baseUrl, authenticated ? async () => (await this.auth.wsToken()).token : undefined);
    return this.realtime;
  }

  /** Closes the realtime connection (REST needs no closing). */
  close(): void {
    this.realtime?.close();
    this.realtime = undefined;
  }
}

export function createPredexClient(options: PredexClientOptions): PredexClient {
  return new PredexClient(options);
}
