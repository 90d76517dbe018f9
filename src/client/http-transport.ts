import { PredexError, isErrorEnvelope } from './predex-error';

export interface Credentials {
  /** L2 API key pair. */
  apiKey?: string;
  apiSecret?: string;
  /** Identity-provider JWT: L1 (key management) and L2. */
  jwt?: string;
  /** Platform key pair an operator issued, for the /trade routes that need one. */
  platformKey?: string;
  platformSecret?: string;
}

export interface TransportOptions extends Credentials {
  baseUrl: string;
  /** Any fetch-compatible function (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  /** Which credentials the route takes: L0 none, L1 the JWT only, L2 the key pair or the JWT, PLATFORM the platform key pair. */
  tier: 'L0' | 'L1' | 'L2' | 'PLATFORM';
  /** Where the route lives: `/v1` (default) or `''` for the root (the /trade routes). */
  prefix?: '/v1' | '';
}

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** JSON over HTTP to one predex server; any non-2xx answer becomes a PredexError with its envelope. */
export class HttpTransport {
  readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? fetch;
  }

  get credentials(): Credentials {
    const { apiKey, apiSecret, jwt, platformKey, platformSecret } = this.options;
    return { apiKey, apiSecret, jwt, platformKey, platformSecret };
  }

  private authHeaders(tier: RequestOptions['tier'], path: string): Record<string, string> {
    const { apiKey, apiSecret, jwt, platformKey, platformSecret } = this.options;
    if (tier === 'L0') return {};
    if (tier === 'PLATFORM') {
      if (platformKey && platformSecret) return { 'fs-platform-key': platformKey, 'fs-platform-secret': platformSecret };
      throw new PredexError({ code: 'AUTH_MISSING', message: `${path} needs a platform key pair (platformKey, platformSecret), issued by an operator` });
    }
    if (tier === 'L2' && apiKey && apiSecret) return { 'fs-api-key': apiKey, 'fs-api-secret': apiSecret };
    if (jwt) return { authorization: `Bearer ${jwt}` };
    throw new PredexError({
      code: 'AUTH_MISSING',
      message: tier === 'L1' ? `${path} needs a JWT (apiKey pairs cannot manage keys)` : `${path} needs an API key pair or a JWT`,
    });
  }

  async request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, options: RequestOptions): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.authHeaders(options.tier, path), ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.baseUrl}${options.prefix ?? '/v1'}${path}${queryString(options.query)}`;
    let response: Response;
    try {
      response = await this.fetchFn(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    } catch (error) {
      throw new PredexError({ code: 'UNREACHABLE', message: `cannot reach ${this.baseUrl}: ${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)}`, path }, { cause: error });
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch (error) {
      throw new PredexError({ code: 'BAD_RESPONSE', message: `${method} ${path} answered ${response.status} with a body that is not JSON`, status_code: response.status, path }, { cause: error });
    }
    if (response.ok) return json as T;
    if (isErrorEnvelope(json)) {
      throw new PredexError({ code: json.code, message: json.message, status_code: json.status_code, correlation_id: json.correlation_id, details: json.details, path: json.path });
    }
    throw new PredexError({ code: 'BAD_RESPONSE', message: `${method} ${path} answered ${response.status} without an error envelope`, status_code: response.status, path });
  }
}
