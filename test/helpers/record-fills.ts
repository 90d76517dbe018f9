import type { Connection } from 'mongoose';
import { applyFillsToPositions, POSITIONS_COLLECTION, type PositionFill, type PositionRow } from '../../src/positions/position-rows';

/** Writes fills as a market step records them: the fill documents, then their position rows. */
export async function recordFills(db: Connection, fills: Record<string, unknown>[], decimals = 18): Promise<void> {
  await db.collection('fills').insertMany(fills.map((f) => ({ ...f })));
  await applyFillsToPositions(db.collection<PositionRow>(POSITIONS_COLLECTION) as never, fills as unknown as PositionFill[], decimals);
}
