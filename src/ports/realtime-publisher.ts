/**
 * What the worker's activities publish and the realtime gateway delivers (decisions section 7).
 * Payloads are already in their wire shapes (the REST Order record, Fill, Public trade, tickers),
 * with decimal strings for money.
 */
export type DeliveredEvent =
  | { channel: 'book'; chain_id: number; condition_id: string; payload: { type: 'delta'; seq: number; changes: { side: 'bid' | 'ask'; price: string; remainingSize: string }[] } }
  | { channel: 'ticker'; chain_id: number; condition_id: string; payload: Record<string, unknown> }
  | { channel: 'trades'; chain_id: number; condition_id: string; payload: Record<string, unknown> }
  | { channel: 'user'; wallet: string; payload: { type: 'order'; order: Record<string, unknown> } | { type: 'fill'; fill: Record<string, unknown> } | { type: 'trade_tx'; trade_tx: Record<string, unknown> } };

/**
 * What an order reserves after a write of the matcher or of settlement (`reserved_units`, with
 * what names the reservation key). Never delivered to a socket: order entry lowers its holds from
 * it without reading the order back.
 */
export interface HoldLevel {
  order_hash: string;
  wallet: string;
  chain_id: number;
  condition_id: string;
  side: 'BUY' | 'SELL';
  token_id: string;
  reserved_units: string;
}

/** Internal: the hold levels of one write, for the API processes' order entry (not routed to sockets). */
export interface HoldsEvent {
  channel: 'holds';
  holds: HoldLevel[];
}

/**
 * What a settled fill took out of its wallet on chain: a BUY fill's collateral plus its fee, a SELL
 * fill's outcome tokens (`side`, `outcome` name the asset). `fill_id` is the fill's key, so the same
 * fill announced twice is taken off once.
 */
export interface SpendLevel {
  fill_id: string;
  wallet: string;
  chain_id: number;
  condition_id: string;
  side: 'BUY' | 'SELL';
  outcome: 0 | 1;
  units: string;
}

/**
 * Internal: the spends of fills settlement just saw mined, for the API processes' balance cache,
 * which takes them off the wallet's cached balance instead of reading the chain again. Not routed
 * to sockets.
 */
export interface SpendsEvent {
  channel: 'spends';
  spends: SpendLevel[];
}

/**
 * Internal: a market's workflow is about to continue as new and asks every process that hands
 * orders over to hold the market's hand-offs for up to `hold_ms` (0: send them now). A signal that
 * lands during the run's last workflow task fails that task, and its retry replays the whole
 * history (docs/matching.md, "Continue-as-new"). Not routed to sockets.
 */
export interface HandoffHoldEvent {
  channel: 'handoffs';
  chain_id: number;
  condition_id: string;
  hold_ms: number;
}

/**
 * Internal: a market's status was just written. Every API process drops its cached record of the
 * market, so a quote after the change answered sees the new status. Not routed to sockets.
 */
export interface MarketStatusEvent {
  channel: 'markets';
  chain_id: number;
  condition_id: string;
  status: string;
}

export type RealtimeEvent = DeliveredEvent | HoldsEvent | SpendsEvent | HandoffHoldEvent | MarketStatusEvent;

/** Channels for the API processes themselves, never delivered to a socket. */
export function isInternalEvent(event: RealtimeEvent): event is HoldsEvent | SpendsEvent | HandoffHoldEvent | MarketStatusEvent {
  return event.channel === 'holds' || event.channel === 'spends' || event.channel === 'handoffs' || event.channel === 'markets';
}

/** The hold level of an order record as just written. */
export function holdLevelOf(o: HoldLevel): HoldLevel {
  return {
    order_hash: o.order_hash, wallet: o.wallet, chain_id: o.chain_id, condition_id: o.condition_id, side: o.side, token_id: o.token_id,
    reserved_units: o.reserved_units,
  };
}

export interface RealtimePublisher {
  /** Publishes in order; resolves when handed to the fan-out (not when every socket got it). */
  publish(events: RealtimeEvent[]): Promise<void>;
}
