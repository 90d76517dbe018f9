/**
 * Position rows (collection `positions`): per wallet, market and outcome, the fold of its fills
 * (src/positions/position-fold.ts), kept as the fills are recorded so that `GET /v1/positions`
 * reads rows, not fills. A row remembers the last fill it folded (`last`): a market's fills are
 * recorded in fold order, one step after another, so a fill at or before `last` is already in it
 * and a retried write folds nothing twice. A fill that fails later is taken out by folding the
 * row's fills again up to `last` (`refoldPositions`), never past it.
 */
import type { mongo } from 'mongoose';
import { bulk, insertNew } from '../db/bulk-writes';
import {
  comparePlaces, countsForPosition, foldFills, inTradeOrder, placeOf, type FillPlace, type FoldedFill, type PositionState,
} from './position-fold';

export const POSITIONS_COLLECTION = 'positions';

export interface PositionRow {
  /** `{wallet}|{key}`. */
  _id: string;
  wallet: string;
  chain_id: number;
  condition_id: string;
  outcome: 0 | 1;
  /** `{chain_id}:{condition_id}:{outcome}`: the tie-breaker of the list's order and cursor. */
  key: string;
  /** The position's first fill, a failed one too: the list's order, so a position never moves between pages. */
  first_at: Date;
  /** D of the fills' decimal strings (the market's token decimals). */
  decimals: number;
  /** PositionState as decimal strings of integers. */
  size: string;
  cost: string;
  realized: string;
  /** Folded fills that count (not FAILED): a position whose fills all failed is not listed. */
  live: number;
  /** The last fill folded in. */
  last: FillPlace;
  /** Bumped by every write: each write is guarded by the version it was computed from. */
  version: number;
  updated_at: Date;
}

/** A fill as a position row folds it. */
export interface PositionFill extends FoldedFill {
  wallet: string;
  chain_id: number;
  condition_id: string;
  outcome: 0 | 1;
}

type Rows = mongo.Collection<PositionRow>;

/** Rounds of a guarded write before giving up to the caller's retry (each lost round met another writer of the row). */
const MAX_ROUNDS = 5;

export function positionKeyOf(f: Pick<PositionFill, 'chain_id' | 'condition_id' | 'outcome'>): string {
  return `${f.chain_id}:${f.condition_id}:${f.outcome}`;
}

export function positionRowIdOf(f: Pick<PositionFill, 'wallet' | 'chain_id' | 'condition_id' | 'outcome'>): string {
  return `${f.wallet.toLowerCase()}|${positionKeyOf(f)}`;
}

export function stateOf(row: Pick<PositionRow, 'size' | 'cost' | 'realized'>): PositionState {
  return { size: BigInt(row.size), cost: BigInt(row.cost), realized: BigInt(row.realized) };
}

/** Per row id, its fills in fold order. */
function byRow<F extends PositionFill>(fills: F[]): Map<string, F[]> {
  const groups = new Map<string, F[]>();
  for (const f of fills) {
    const id = positionRowIdOf(f);
    const list = groups.get(id) ?? [];
    list.push(f);
    groups.set(id, list);
  }
  for (const list of groups.values()) list.sort(inTradeOrder);
  return groups;
}

/** The row of `fills` (fold order, one position), from nothing. */
function rowOf(fills: PositionFill[], decimals: number, now: Date): PositionRow {
  const f = fills[0];
  const counted = fills.filter(countsForPosition);
  const state = foldFills(counted, decimals);
  return {
    _id: positionRowIdOf(f), wallet: f.wallet.toLowerCase(), chain_id: f.chain_id, condition_id: f.condition_id, outcome: f.outcome,
    key: positionKeyOf(f), first_at: new Date(f.created_at), decimals, ...written(state), live: counted.length,
    last: placeOf(fills[fills.length - 1]), version: 0, updated_at: now,
  };
}

function written(state: PositionState): Pick<PositionRow, 'size' | 'cost' | 'realized'> {
  return { size: state.size.toString(), cost: state.cost.toString(), realized: state.realized.toString() };
}

/**
 * Folds fills just recorded into their rows. Idempotent: a fill at or before a row's `last` is in
 * it already. The fills of one position must come at or after the ones recorded before them.
 */
export async function applyFillsToPositions(rows: Rows, fills: PositionFill[], decimals: number, now = new Date()): Promise<void> {
  const groups = byRow(fills);
  let pending = [...groups.keys()];
  for (let round = 1; pending.length > 0; round++) {
    if (round > MAX_ROUNDS) throw new Error(`positions: ${pending.length} rows still overtaken after ${MAX_ROUNDS} rounds`);
    const stored = new Map((await rows.find({ _id: { $in: pending } }).toArray()).map((r) => [r._id, r]));
    const inserts: PositionRow[] = [];
    const updates: mongo.AnyBulkWriteOperation<PositionRow>[] = [];
    for (const id of pending) {
      const row = stored.get(id);
      const list = groups.get(id)!;
      const fresh = row ? list.filter((f) => comparePlaces(placeOf(f), row.last) > 0) : list;
      if (fresh.length === 0) continue;
      if (!row) {
        inserts.push(rowOf(fresh, decimals, now));
        continue;
      }
      const counted = fresh.filter(countsForPosition);
      const firstAt = new Date(Math.min(row.first_at.getTime(), new Date(fresh[0].created_at).getTime()));
      const set = {
        ...written(foldFills(counted, row.decimals, stateOf(row))), live: row.live + counted.length, first_at: firstAt,
        last: placeOf(fresh[fresh.length - 1]), version: row.version + 1, updated_at: now,
      };
      updates.push({ updateOne: { filter: { _id: id, version: row.version }, update: { $set: set } } });
    }
    const again = await insertNew(rows, inserts);
    const matched = updates.length > 0 ? await bulk(rows, updates) : 0;
    // A lost write is computed again from the row as it is now (the ones that landed fold nothing more).
    pending = matched < updates.length ? [...again, ...updates.map((u) => String((u as { updateOne: { filter: { _id: string } } }).updateOne.filter._id))] : again;
  }
}

/**
 * Folds the given rows again from their fills up to each row's `last`, for fills that failed after
 * they were folded in (they count no more). Reads each position's fills: a failure's cost, not a read's.
 */
export async function refoldPositions<F extends PositionFill & mongo.Document>(rows: Rows, fills: mongo.Collection<F>, rowIds: string[], now = new Date()): Promise<void> {
  let pending = [...new Set(rowIds)];
  for (let round = 1; pending.length > 0; round++) {
    if (round > MAX_ROUNDS) throw new Error(`positions: ${pending.length} rows still overtaken after ${MAX_ROUNDS} rounds`);
    const stored = await rows.find({ _id: { $in: pending } }).toArray();
    const updates: mongo.AnyBulkWriteOperation<PositionRow>[] = [];
    for (const row of stored) {
      const position = { wallet: row.wallet, chain_id: row.chain_id, condition_id: row.condition_id, outcome: row.outcome } as mongo.Filter<F>;
      const own = ((await fills.find(position).toArray()) as unknown as PositionFill[])
        .filter((f) => comparePlaces(placeOf(f), row.last) <= 0)
        .sort(inTradeOrder);
      if (own.length === 0) continue;
      const counted = own.filter(countsForPosition);
      const set = {
        ...written(foldFills(counted, row.decimals)), live: counted.length, first_at: new Date(own[0].created_at), version: row.version + 1, updated_at: now,
      };
      updates.push({ updateOne: { filter: { _id: row._id, version: row.version }, update: { $set: set } } });
    }
    const matched = updates.length > 0 ? await bulk(rows, updates) : 0;
    pending = matched < updates.length ? updates.map((u) => String((u as { updateOne: { filter: { _id: string } } }).updateOne.filter._id)) : [];
  }
}

/** Every fill's row, folded from the store (`backfillPositions`): the rows of positions that have none. */
export async function insertMissingRows(rows: Rows, fills: PositionFill[], decimalsOf: (f: PositionFill) => number | undefined, now = new Date()): Promise<number> {
  const made: PositionRow[] = [];
  for (const list of byRow(fills).values()) {
    const decimals = decimalsOf(list[0]);
    if (decimals !== undefined) made.push(rowOf(list, decimals, now));
  }
  const existing = await insertNew(rows, made);
  return made.length - existing.length;
}
