/**
 * The soak's verdict on every order it sent: given what was done to each order (placed, answered,
 * cancelled) and the service's final records and fills, which orders are lost (missing, duplicated,
 * or in a state that contradicts what was done), and what each wallet's balances must be on chain
 * according to the settled fills. Pure: bench/soak.bench.ts gathers the inputs.
 */
import { parseUnits } from 'viem';

/** Crossing orders must match; far ones rest until the bench cancels them or they expire (GTD). */
export type Intent = 'cross' | 'cancel' | 'expire';

export interface SentOrder {
  hash: string;
  wallet: string;
  condition_id: string;
  side: 'BUY' | 'SELL';
  intent: Intent;
  /** `accepted`, the inline rejection code, or `unknown` (the POST got no answer). */
  answer: string;
  /** What POST /v1/orders/cancel said of it: `cancelled`, a not_cancelled code, or `unknown`; absent if never asked. */
  cancel?: string;
}

export interface FinalRecord {
  order_hash: string;
  status: string;
  size: string;
  remaining_size: string;
}

export interface FillRecord {
  trade_id: string;
  order_hash: string;
  condition_id: string;
  side: 'BUY' | 'SELL';
  outcome: number;
  price: string;
  size: string;
  fee: string;
  settlement_status: string;
}

export type LostReason =
  | 'missing' // accepted, no record
  | 'duplicated' // more than one record, or a fill listed twice
  | 'stored_after_rejection' // rejected inline, yet recorded
  | 'wrong_state' // a state its intent and what was done to it rule out
  | 'fills_disagree' // matched size and fills differ
  | 'unmatched'; // a crossing order resting beyond its market's buy/sell imbalance

export interface Verdict {
  lost_orders: number;
  lost_by_reason: Partial<Record<LostReason, number>>;
  /** Final status counts per intent. */
  statuses: Record<Intent, Record<string, number>>;
  match_failed: number;
  /** Records of these wallets that the bench never sent. */
  unexpected_records: number;
  samples: string[];
}

const DECIMALS = 18;
const units = (decimal: string): bigint => parseUnits(decimal, DECIMALS);

export function judgeOrders(sent: SentOrder[], records: FinalRecord[], fills: FillRecord[]): Verdict {
  const recordsOf = groupBy(records, (r) => r.order_hash.toLowerCase());
  const fillsOf = groupBy(fills, (f) => f.order_hash.toLowerCase());
  const statuses: Verdict['statuses'] = { cross: {}, cancel: {}, expire: {} };
  const lostBy: Verdict['lost_by_reason'] = {};
  const samples: string[] = [];
  let lost = 0;
  let matchFailed = 0;
  const lose = (o: SentOrder, reason: LostReason, detail: string) => {
    lost += 1;
    lostBy[reason] = (lostBy[reason] ?? 0) + 1;
    if (samples.length < 10) samples.push(`${o.hash} (${o.intent} ${o.side}): ${reason}, ${detail}`);
  };
  /** Per market, crossing orders on the book and recorded (side -> orders). */
  const crossing = new Map<string, { resting: SentOrder[]; present: Record<'BUY' | 'SELL', number> }>();

  for (const o of sent) {
    const recs = recordsOf.get(o.hash) ?? [];
    const own = fillsOf.get(o.hash) ?? [];
    if (recs.length === 0) {
      if (o.answer === 'accepted') lose(o, 'missing', 'no record');
      continue;
    }
    if (o.answer !== 'accepted' && o.answer !== 'unknown') {
      lose(o, 'stored_after_rejection', `rejected ${o.answer}, recorded ${recs[0].status}`);
      continue;
    }
    if (recs.length > 1) {
      lose(o, 'duplicated', `${recs.length} records`);
      continue;
    }
    if (new Set(own.map((f) => f.trade_id)).size !== own.length) {
      lose(o, 'duplicated', 'a fill listed twice');
      continue;
    }
    const rec = recs[0];
    statuses[o.intent][rec.status] = (statuses[o.intent][rec.status] ?? 0) + 1;
    const market = crossing.get(o.condition_id) ?? { resting: [], present: { BUY: 0, SELL: 0 } };
    crossing.set(o.condition_id, market);
    if (o.intent === 'cross') market.present[o.side] += 1;
    // It matched and its settlement failed for good: one honest end, counted on its own.
    if (o.intent === 'cross' && rec.status === 'MATCH_FAILED') {
      matchFailed += 1;
      continue;
    }
    const matched = units(rec.size) - units(rec.remaining_size);
    const filled = own.reduce((sum, f) => sum + units(f.size), 0n);
    if (filled !== matched) {
      lose(o, 'fills_disagree', `${rec.status} with ${rec.size} - ${rec.remaining_size} matched, fills ${filled}`);
      continue;
    }
    if (o.intent === 'cross') {
      if (rec.status === 'OPEN' && matched === 0n) market.resting.push(o);
      else if ((rec.status !== 'MATCHED' && rec.status !== 'FILLED') || rec.remaining_size !== '0') lose(o, 'wrong_state', `${rec.status}, ${rec.remaining_size} left`);
      continue;
    }
    if (matched !== 0n) {
      lose(o, 'wrong_state', `a resting order matched (${rec.status})`);
      continue;
    }
    const expected = o.intent === 'expire' ? ['EXPIRED'] : o.cancel === 'cancelled' ? ['CANCELLED'] : o.cancel === 'unknown' ? ['CANCELLED', 'OPEN'] : [];
    if (!expected.includes(rec.status)) lose(o, 'wrong_state', `${rec.status} after ${o.intent === 'cancel' ? `cancel answered ${o.cancel ?? 'never asked'}` : 'its expiration'}`);
  }

  // Any buy crosses any sell: a market can only keep crossing orders of its surplus side resting.
  for (const { resting, present } of crossing.values()) {
    const sides = new Set(resting.map((o) => o.side));
    const allowed = sides.size > 1 ? 0 : Math.abs(present.BUY - present.SELL);
    for (const o of resting.slice(allowed)) lose(o, 'unmatched', sides.size > 1 ? 'both sides of a crossing market rest' : 'rests beyond the imbalance');
  }

  const sentHashes = new Set(sent.map((o) => o.hash));
  const unexpected = [...recordsOf.keys()].filter((h) => !sentHashes.has(h)).length;
  return { lost_orders: lost, lost_by_reason: lostBy, statuses, match_failed: matchFailed, unexpected_records: unexpected, samples };
}

/** A wallet's holdings: collateral and outcome-token balances keyed `condition_id:outcome`. */
export interface Holdings {
  collateral: bigint;
  tokens: Record<string, bigint>;
}

export const tokenKey = (conditionId: string, outcome: number): string => `${conditionId.toLowerCase()}:${outcome}`;

/**
 * What a wallet's settled (CONFIRMED) fills moved: a BUY pays price x size (rounded up, as the
 * signed maker amount is) and receives the tokens, a SELL the reverse (rounded down); both pay the fee.
 */
export function settledDelta(fills: FillRecord[]): Holdings {
  const delta: Holdings = { collateral: 0n, tokens: {} };
  for (const f of fills) {
    if (f.settlement_status !== 'CONFIRMED') continue;
    const size = units(f.size);
    const priceMicros = parseUnits(f.price, 6);
    const notional = f.side === 'BUY' ? (size * priceMicros + 999_999n) / 1_000_000n : (size * priceMicros) / 1_000_000n;
    const key = tokenKey(f.condition_id, f.outcome);
    delta.collateral += (f.side === 'BUY' ? -notional : notional) - units(f.fee);
    delta.tokens[key] = (delta.tokens[key] ?? 0n) + (f.side === 'BUY' ? size : -size);
  }
  return delta;
}

/** Differences between `after` and `before + delta`, one line per disagreeing balance. */
export function balanceMismatches(wallet: string, before: Holdings, delta: Holdings, after: Holdings): string[] {
  const out: string[] = [];
  const expectCollateral = before.collateral + delta.collateral;
  if (after.collateral !== expectCollateral) out.push(`${wallet} collateral ${after.collateral}, fills say ${expectCollateral}`);
  const keys = new Set([...Object.keys(before.tokens), ...Object.keys(delta.tokens), ...Object.keys(after.tokens)]);
  for (const k of keys) {
    const expected = (before.tokens[k] ?? 0n) + (delta.tokens[k] ?? 0n);
    const actual = after.tokens[k] ?? 0n;
    if (actual !== expected) out.push(`${wallet} token ${k} ${actual}, fills say ${expected}`);
  }
  return out;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
