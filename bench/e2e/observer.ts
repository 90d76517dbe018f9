/**
 * When did each order match? Primary: the `user` channel of /v1/ws (one authenticated connection per
 * wallet; the first order event with status PARTIALLY_FILLED, MATCHED or FILLED, or the first fill
 * event of the order). Fallback when the service publishes no user events: polling GET /v1/orders
 * (status=filled, i.e. MATCHED or FILLED, then status=cancelled for MATCH_FAILED: it matched, then settlement failed) per wallet; the time is then the poll that first saw it.
 */
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { json, type Trader } from './setup';

const MATCHED = new Set(['PARTIALLY_FILLED', 'MATCHED', 'FILLED']);
/** Order statuses after which the order trades no more (FILLED and MATCH_FAILED end settlement too). */
const ENDED = new Set(['CANCELLED', 'EXPIRED']);
/** Fill settlement statuses after which nothing more happens on chain. */
const FILL_FINAL = new Set(['CONFIRMED', 'FAILED']);

export type ObserveMode = 'socket' | 'rest';

export interface UserEvent {
  type: string;
  order?: { order_hash: string; status: string; condition_id?: string };
  fill?: { order_hash: string; trade_id?: string; settlement_status?: string; condition_id?: string };
}

export class MatchObserver {
  readonly matchedAt = new Map<string, number>();
  readonly failed = new Set<string>();
  /** When each order was seen at the end of settlement (FILLED or MATCH_FAILED; socket mode only). */
  readonly settledAt = new Map<string, number>();
  readonly statuses = new Map<string, number>();
  /** Orders that ended CANCELLED or EXPIRED, perhaps after a partial fill still settling. */
  private readonly ended = new Set<string>();
  /** Fills not yet CONFIRMED or FAILED: trade id by order hash. */
  private readonly unsettledFills = new Map<string, Set<string>>();
  private readonly markets: ReadonlySet<string> | undefined;
  /** The last order status seen per hash (socket mode): what an order left settling is stuck at. */
  readonly lastStatus = new Map<string, string>();
  private sockets: Socket[] = [];
  private mode: ObserveMode = 'socket';
  /** hashes per wallet that REST polling still looks for */
  private pending = new Map<string, Set<string>>();
  private polling = false;
  userEvents = 0;
  lastEventAt = 0;
  pollErrors = 0;
  lastPollError = '';

  /**
   * `markets`: the condition ids whose events count; the bench's wallets may also trade elsewhere
   * (the demo bots use some of the same dev accounts on the demo markets).
   */
  constructor(private readonly api: string, private readonly traders: Trader[], markets?: Iterable<string>) {
    this.markets = markets ? new Set([...markets].map((m) => m.toLowerCase())) : undefined;
  }

  private watched(conditionId: string | undefined): boolean {
    return !this.markets || (conditionId !== undefined && this.markets.has(conditionId.toLowerCase()));
  }

  private noteFill(hash: string, tradeId: string | undefined, status: string | undefined): void {
    if (!tradeId || !status) return;
    const open = this.unsettledFills.get(hash) ?? new Set<string>();
    if (FILL_FINAL.has(status)) open.delete(tradeId);
    else open.add(tradeId);
    if (open.size > 0) this.unsettledFills.set(hash, open);
    else this.unsettledFills.delete(hash);
  }

  /** Settled: FILLED or MATCH_FAILED, or ended otherwise with every fill seen settled. */
  private isSettled(hash: string): boolean {
    return this.settledAt.has(hash) || (this.ended.has(hash) && !this.unsettledFills.has(hash));
  }

  get observeMode(): ObserveMode {
    return this.mode;
  }

  setMode(mode: ObserveMode): void {
    this.mode = mode;
  }

  private record(hash: string, at: number): void {
    if (!this.matchedAt.has(hash)) this.matchedAt.set(hash, at);
  }

  /** One `user` event seen at `now` (the socket handler; public so the rules can be tested alone). */
  take(event: UserEvent, now: number): void {
    this.lastEventAt = now;
    this.userEvents += 1;
    if (event.type === 'order' && event.order && this.watched(event.order.condition_id)) {
      const status = event.order.status;
      const hash = event.order.order_hash.toLowerCase();
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
      this.lastStatus.set(hash, status);
      if (MATCHED.has(status)) this.record(hash, now);
      if ((status === 'FILLED' || status === 'MATCH_FAILED') && !this.settledAt.has(hash)) this.settledAt.set(hash, now);
      if (status === 'MATCH_FAILED') {
        this.failed.add(hash);
        this.record(hash, now);
      }
      if (ENDED.has(status)) this.ended.add(hash);
    } else if (event.type === 'fill' && event.fill && this.watched(event.fill.condition_id)) {
      const hash = event.fill.order_hash.toLowerCase();
      this.record(hash, now);
      this.noteFill(hash, event.fill.trade_id, event.fill.settlement_status);
    }
  }

  async connect(): Promise<void> {
    await Promise.all(
      this.traders.map(async (trader) => {
        const token = await json<{ token: string }>(`${this.api}/v1/auth/ws-token`, { method: 'POST', headers: { authorization: `Bearer ${trader.jwt}` } });
        if (token.status !== 200) throw new Error(`ws-token answered ${token.status}: ${JSON.stringify(token.body)}`);
        const socket = io(this.api, { path: '/v1/ws', transports: ['websocket'], auth: { token: token.body.token }, reconnection: false });
        this.sockets.push(socket);
        socket.on('user', (event: UserEvent) => this.take(event, performance.now()));
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('socket connect timeout')), 15_000);
          socket.once('connect_error', (error) => {
            clearTimeout(timer);
            reject(error);
          });
          socket.once('connect', () => {
            socket.emit('subscribe', { channel: 'user' }, (ack: { ok: boolean; error?: unknown }) => {
              clearTimeout(timer);
              if (ack.ok) resolve();
              else reject(new Error(`subscribe user: ${JSON.stringify(ack.error)}`));
            });
          });
        });
      }),
    );
  }

  close(): void {
    for (const s of this.sockets) s.disconnect();
    this.sockets = [];
  }

  /** Resolves true once no user event arrived for `quietMs` (socket mode), false at `maxMs`. */
  async quiet(quietMs: number, maxMs: number): Promise<boolean> {
    const end = performance.now() + maxMs;
    while (performance.now() < end) {
      if (this.mode === 'socket' && performance.now() - this.lastEventAt >= quietMs) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  }

  /** REST mode: start looking for these hashes. */
  track(orders: { hash: string; trader: Trader }[]): void {
    if (this.mode !== 'rest') return;
    for (const o of orders) {
      const key = o.trader.address.toLowerCase();
      const set = this.pending.get(key) ?? new Set<string>();
      set.add(o.hash);
      this.pending.set(key, set);
    }
  }

  private async pollOnce(since: number): Promise<void> {
    const cutoff = new Date(since - 5_000).toISOString();
    await Promise.all(
      this.traders.map(async (trader) => {
        const want = this.pending.get(trader.address.toLowerCase());
        if (!want || want.size === 0) return;
        for (const group of ['filled', 'cancelled']) {
          let cursor = '';
          for (let page = 0; page < 200; page += 1) {
            if (want.size === 0) return;
            const url = `${this.api}/v1/orders?status=${group}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
            let res: { status: number; body: { data: { order_hash: string; status: string; created_at: string }[]; next_cursor: string; has_more: boolean } };
            try {
              res = await json(url, { headers: { authorization: `Bearer ${trader.jwt}` } });
            } catch (error) {
              this.pollErrors += 1;
              this.lastPollError = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : String(error);
              return;
            }
            if (res.status !== 200) {
              this.pollErrors += 1;
              this.lastPollError = `HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`;
              return;
            }
            const now = performance.now();
            for (const o of res.body.data) {
              const hash = o.order_hash.toLowerCase();
              if (!want.delete(hash)) continue;
              this.record(hash, now);
              this.statuses.set(o.status, (this.statuses.get(o.status) ?? 0) + 1);
              if (o.status === 'MATCH_FAILED') this.failed.add(hash);
            }
            const last = res.body.data.at(-1);
            if (!res.body.has_more || (last && last.created_at < cutoff)) break;
            cursor = res.body.next_cursor;
          }
        }
      }),
    );
  }

  /**
   * Resolves when every order seen matched so far has also been seen settled (FILLED or
   * MATCH_FAILED, or cancelled or expired after a partial fill once that fill settled), or at the
   * deadline; the number still settling. Socket mode only (REST mode resolves at once with -1).
   * With `stalledMs`, also when no order settled for that long: an order whose end event never
   * comes does not hold every later wait to the deadline.
   */
  async waitSettled(deadline: number, stalledMs = Infinity): Promise<number> {
    if (this.mode !== 'socket') return -1;
    const left = () => [...this.matchedAt.keys()].filter((h) => !this.isSettled(h)).length;
    let settled = this.settledAt.size;
    let progressAt = performance.now();
    while (left() > 0 && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      if (this.settledAt.size !== settled) {
        settled = this.settledAt.size;
        progressAt = performance.now();
      } else if (performance.now() - progressAt >= stalledMs) break;
    }
    return left();
  }

  /** Orders seen matched and not settled, counted by the last status seen of each. */
  unsettledByStatus(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const hash of this.matchedAt.keys()) {
      if (this.settledAt.has(hash)) continue;
      const status = this.lastStatus.get(hash) ?? 'no order event';
      counts[status] = (counts[status] ?? 0) + 1;
    }
    return counts;
  }

  /**
   * Resolves when every hash is matched or failed, or at the deadline. REST mode polls every
   * `pollMs`; socket mode just checks. `sinceWall` bounds REST paging (orders created before it are old).
   */
  async waitFor(hashes: string[], deadline: number, sinceWall: number, pollMs = 500): Promise<boolean> {
    const done = () => hashes.every((h) => this.matchedAt.has(h) || this.failed.has(h));
    while (!done() && performance.now() < deadline) {
      if (this.mode === 'rest' && !this.polling) {
        this.polling = true;
        try {
          await this.pollOnce(sinceWall);
        } finally {
          this.polling = false;
        }
      }
      await new Promise((r) => setTimeout(r, this.mode === 'rest' ? pollMs : 20));
    }
    return done();
  }
}
