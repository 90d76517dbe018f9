import { Engine, signedAmounts, ZERO_ADDRESS, type EngineEvent, type EngineOrder, type OrderType, type Outcome, type Side } from '../../src/engine';

/** Test markets use D = 6: one share is 10^6 base units. */
export const SHARE = 1_000_000n;
export const shares = (n: number): bigint => BigInt(Math.round(n * 1_000_000));

export const ALICE = '0x00000000000000000000000000000000000000a1';
export const BOB = '0x00000000000000000000000000000000000000b0';
export const CAROL = '0x00000000000000000000000000000000000000c0';
export const DAVE = '0x00000000000000000000000000000000000000d0';

export interface OrderSpec {
  hash: string;
  maker: string;
  side: Side;
  outcome: Outcome;
  price: number;
  size: bigint;
  orderType?: OrderType;
  taker?: string;
  expiration?: number;
  feeRateBps?: number;
  postOnly?: boolean;
}

export function order(spec: OrderSpec): EngineOrder {
  return {
    hash: spec.hash, maker: spec.maker, taker: spec.taker ?? ZERO_ADDRESS, side: spec.side, outcome: spec.outcome,
    orderType: spec.orderType ?? 'LIMIT', price: spec.price, size: spec.size,
    ...signedAmounts(spec.side, spec.size, spec.price),
    expiration: spec.expiration ?? (spec.orderType === 'GTD' ? 1_000 : 0), feeRateBps: spec.feeRateBps ?? 0,
    ...(spec.postOnly === undefined ? {} : { postOnly: spec.postOnly }),
  };
}

/** Same with the size in base units (any size, e.g. shares(10) + 1n). */
export const withUnits = (side: Side, outcome: Outcome) => (hash: string, maker: string, price: number, size: bigint, extra: Partial<OrderSpec> = {}) =>
  order({ hash, maker, side, outcome, price, size, ...extra });

/** Shorthands: buyYes('h', ALICE, 55, 10) = BUY YES @0.55 for 10 shares. */
export const buyYes = (hash: string, maker: string, price: number, n: number, extra: Partial<OrderSpec> = {}) =>
  order({ hash, maker, side: 'BUY', outcome: 1, price, size: shares(n), ...extra });
export const sellYes = (hash: string, maker: string, price: number, n: number, extra: Partial<OrderSpec> = {}) =>
  order({ hash, maker, side: 'SELL', outcome: 1, price, size: shares(n), ...extra });
export const buyNo = (hash: string, maker: string, price: number, n: number, extra: Partial<OrderSpec> = {}) =>
  order({ hash, maker, side: 'BUY', outcome: 0, price, size: shares(n), ...extra });
export const sellNo = (hash: string, maker: string, price: number, n: number, extra: Partial<OrderSpec> = {}) =>
  order({ hash, maker, side: 'SELL', outcome: 0, price, size: shares(n), ...extra });

/** Place orders one by one, checking invariants after each; returns all events. */
export function seed(engine: Engine, orders: EngineOrder[], now = 100): EngineEvent[] {
  const events: EngineEvent[] = [];
  for (const o of orders) {
    events.push(...engine.place(o, now));
    engine.assertInvariants();
  }
  return events;
}

/** Events without seq/at, for compact expectations. */
export function strip(events: EngineEvent[]): Record<string, unknown>[] {
  return events.map((event) => {
    const { seq: _seq, at: _at, ...rest } = event;
    return rest;
  });
}

export function typesOf(events: EngineEvent[]): string[] {
  return events.map((e) => e.type);
}
