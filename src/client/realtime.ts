/**
 * One socket.io connection to /v1/ws shared by every subscription of a client. Each connect and
 * reconnect takes a fresh single-use token (when the client has credentials) and subscribes again
 * to everything still wanted, so a dropped connection heals by itself.
 */
import { io, type Socket } from 'socket.io-client';
import { PredexError } from './predex-error';

export type Channel = 'book' | 'ticker' | 'trades' | 'user';
export interface SubscriptionBody {
  channel: Channel;
  condition_id?: string;
  chain_id?: number;
}
type Ack = { ok: true } | { ok: false; error: { code: string; message: string } };

export interface ChannelListener {
  body: SubscriptionBody;
  onMessage(message: unknown): void;
  /** The connection came back: state kept from before may have missed messages. */
  onResubscribed?(): void;
  onError?(error: PredexError): void;
}

const ACK_TIMEOUT_MS = 10_000;

export class RealtimeConnection {
  private socket?: Socket;
  private readonly listeners = new Set<ChannelListener>();
  private connectedOnce = false;

  constructor(
    private readonly baseUrl: string,
    private readonly token?: () => Promise<string>,
  ) {}

  private connect(): Socket {
    if (this.socket) return this.socket;
    const token = this.token;
    const socket = io(this.baseUrl, {
      path: '/v1/ws',
      transports: ['websocket'],
      // A function: every reconnect fetches a new token, as tokens are consumed by the handshake.
      auth: token ? (cb) => void token().then((t) => cb({ token: t }), () => cb({})) : undefined,
    });
    socket.on('connect', () => {
      const again = this.connectedOnce;
      this.connectedOnce = true;
      for (const listener of this.listeners) void this.send(listener, again);
    });
    socket.on('connect_error', (error: Error & { data?: { code?: string } }) => {
      const failure = new PredexError({ code: (error.data?.code as PredexError['code']) ?? 'UNREACHABLE', message: `realtime connection failed: ${error.message}` });
      for (const listener of this.listeners) listener.onError?.(failure);
    });
    socket.on('gateway_error', (message: { code?: string; message?: string }) => {
      const failure = new PredexError({ code: (message.code as PredexError['code']) ?? 'INTERNAL_ERROR', message: message.message ?? 'the gateway closed the connection' });
      for (const listener of this.listeners) listener.onError?.(failure);
    });
    for (const channel of ['book', 'ticker', 'trades', 'user'] as const) {
      socket.on(channel, (message: { condition_id?: string }) => {
        for (const listener of this.listeners) {
          if (listener.body.channel !== channel) continue;
          if (channel !== 'user' && listener.body.condition_id?.toLowerCase() !== message.condition_id?.toLowerCase()) continue;
          listener.onMessage(message);
        }
      });
    }
    this.socket = socket;
    return socket;
  }

  private async send(listener: ChannelListener, again: boolean): Promise<void> {
    const ack = await this.ask('subscribe', listener.body);
    if (!ack.ok) listener.onError?.(new PredexError({ code: ack.error.code as PredexError['code'], message: ack.error.message }));
    else if (again) listener.onResubscribed?.();
  }

  private async ask(event: 'subscribe' | 'unsubscribe', body: SubscriptionBody): Promise<Ack> {
    const socket = this.connect();
    try {
      return (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, body)) as Ack;
    } catch {
      return { ok: false, error: { code: 'UNREACHABLE', message: `no answer to ${event} ${body.channel} within ${ACK_TIMEOUT_MS} ms` } };
    }
  }

  /** Adds a listener and subscribes; resolves once the server accepted, rejects with its error. */
  async add(listener: ChannelListener): Promise<void> {
    if (listener.body.channel === 'user' && !this.token) {
      throw new PredexError({ code: 'AUTH_MISSING', message: 'the user channel needs an API key pair or a JWT' });
    }
    this.listeners.add(listener);
    const ack = await this.ask('subscribe', listener.body);
    if (!ack.ok) {
      this.listeners.delete(listener);
      throw new PredexError({ code: ack.error.code as PredexError['code'], message: ack.error.message });
    }
  }

  /** Subscribes the same body again: the server answers a book subscription with a fresh snapshot. */
  async refresh(listener: ChannelListener): Promise<void> {
    if (this.listeners.has(listener)) await this.send(listener, false);
  }

  async remove(listener: ChannelListener): Promise<void> {
    if (!this.listeners.delete(listener)) return;
    const same = [...this.listeners].some((l) => l.body.channel === listener.body.channel && l.body.condition_id === listener.body.condition_id);
    if (!same && this.socket?.connected) await this.ask('unsubscribe', listener.body);
  }

  close(): void {
    this.listeners.clear();
    this.socket?.disconnect();
    this.socket = undefined;
    this.connectedOnce = false;
  }
}
