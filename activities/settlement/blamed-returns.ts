/**
 * What a refused match leaves to undo once its failing orders are known (leg blame): the blamed
 * orders fail, every other order of the match goes back to where it stood. Pure: the settlement
 * activities read and write, the market workflow puts the orders back (workflows/market-returns.ts).
 */
import type { FillRecord } from '../../src/matching/collections';

/** An order the chain refused in a match, and why (a status reason code: BALANCE_CHANGED, ...). */
export interface BlamedOrder {
  orderHash: string;
  reason: string;
}

/** A group whose match was refused because of `blamed`. */
export interface BlamedGroup {
  batchId: string;
  tradeIds: string[];
  blamed: BlamedOrder[];
}

/** Units of an order to put back: a maker rests again at its place, a taker is matched again. */
export interface ReturnedOrder {
  hash: string;
  units: string;
  role: 'maker' | 'taker';
}

/** Per order of the groups' fills: the blamed ones with their reason, the others with the units their fills took. */
export function returnsOf(fills: FillRecord[], blamed: BlamedOrder[]): { returned: ReturnedOrder[]; failedFills: FillRecord[]; returnedFills: FillRecord[] } {
  const blame = new Set(blamed.map((b) => b.orderHash.toLowerCase()));
  const units = new Map<string, { units: bigint; role: 'maker' | 'taker' }>();
  const failedFills: FillRecord[] = [];
  const returnedFills: FillRecord[] = [];
  for (const f of fills) {
    if (blame.has(f.order_hash.toLowerCase())) {
      failedFills.push(f);
      continue;
    }
    returnedFills.push(f);
    const seen = units.get(f.order_hash) ?? { units: 0n, role: f.role };
    units.set(f.order_hash, { units: seen.units + BigInt(f.size_units), role: f.role });
  }
  const returned = [...units].map(([hash, u]) => ({ hash, units: u.units.toString(), role: u.role }));
  return { returned, failedFills, returnedFills };
}
