/**
 * What the worker's activities publish and the realtime gateway delivers (decisions section 7).
 * Payloads are already in their wire shapes (the REST Order record, Fill, Public trade, tickers),
 * with decimal strings for money.
 */
export type RealtimeEvent =
  | { channel: 'book'; chain_id: number; condition_id: string; payload: { type: 'delta'; seq: number; changes: { side: 'bid' | 'ask'; price: string; remainingSize: string }[] } }
  | { channel: 'ticker'; chain_id: number; condition_id: string; payload: Record<string, unknown> }
  | { channel: 'trades'; chain_id: number; condition_id: string; payload: Record<string, unknown> }
  | { channel: 'user'; wallet: string; payload: { type: 'order'; order: Record<string, unknown> } | { type: 'fill'; fill: Record<string, unknown> } };

export interface RealtimePublisher {
  /** Publishes in order; resolves when handed to the fan-out (not when every socket got it). */
  publish(events: RealtimeEvent[]): Promise<void>;
}
