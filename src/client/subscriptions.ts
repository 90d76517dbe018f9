import { LocalBook, type BookMessage, type BookView } from './local-book';
import type { PredexError } from './predex-error';
import type { ChannelListener, RealtimeConnection, SubscriptionBody } from './realtime';
import type { Fill, OrderRecord, PublicTrade, Ticker } from './types';

export type UserEvent =
  | { type: 'order'; order: OrderRecord }
  | { type: 'fill'; fill: Fill }
  | { type: string; [field: string]: unknown };

export interface Subscription {
  close(): Promise<void>;
}

export interface SubscribeOptions {
  chainId?: number;
  onError?: (error: PredexError) => void;
}

export interface BookOptions extends SubscribeOptions {
  /** A delta arrived out of sequence: the book is being fetched again. */
  onGap?: (info: { expected: number; got: number }) => void;
}

export class Subscriptions {
  constructor(private readonly connection: () => RealtimeConnection, private readonly chainId: number) {}

  private async open(body: SubscriptionBody, listener: Omit<ChannelListener, 'body'>): Promise<Subscription> {
    const full: ChannelListener = { body, ...listener };
    const connection = this.connection();
    await connection.add(full);
    return { close: () => connection.remove(full) };
  }

  private market(channel: 'book' | 'ticker' | 'trades', conditionId: string, options: SubscribeOptions): SubscriptionBody {
    return { channel, condition_id: conditionId, chain_id: options.chainId ?? this.chainId };
  }

  /**
   * A market's live book: `handler` gets the whole book (best first) after the snapshot and after
   * each delta. A delta out of sequence triggers a new subscription, whose snapshot replaces the book.
   */
  book(conditionId: string, handler: (book: BookView, message: BookMessage) => void, options: BookOptions = {}): Promise<Subscription> {
    const book = new LocalBook(conditionId);
    let lastSeq = -1;
    const full: ChannelListener = {
      body: this.market('book', conditionId, options),
      onMessage: (raw) => {
        const message = raw as BookMessage;
        if (book.apply(message) === 'gap') {
          if (message.type === 'delta') options.onGap?.({ expected: lastSeq + 1, got: message.seq });
          void this.connection().refresh(full);
          return;
        }
        lastSeq = Math.max(lastSeq, message.seq);
        handler(book.view(), message);
      },
      onError: options.onError,
    };
    const connection = this.connection();
    return connection.add(full).then(() => ({ close: () => connection.remove(full) }));
  }

  ticker(conditionId: string, handler: (ticker: Ticker) => void, options: SubscribeOptions = {}): Promise<Subscription> {
    return this.open(this.market('ticker', conditionId, options), { onMessage: (m) => handler(m as Ticker), onError: options.onError });
  }

  trades(conditionId: string, handler: (trade: PublicTrade) => void, options: SubscribeOptions = {}): Promise<Subscription> {
    return this.open(this.market('trades', conditionId, options), { onMessage: (m) => handler(m as PublicTrade), onError: options.onError });
  }

  /** The wallet's own order and fill events (needs credentials). */
  user(handler: (event: UserEvent) => void, options: Omit<SubscribeOptions, 'chainId'> = {}): Promise<Subscription> {
    return this.open({ channel: 'user' }, { onMessage: (m) => handler(m as UserEvent), onError: options.onError });
  }
}
