import { writeErrorsOf } from './duplicate-keys';

/**
 * The outcome per document of an unordered `insertMany`: true if inserted, false if its `_id` was
 * taken (a duplicate key), or an Error for that document alone. Lets a batching loader
 * (`coalescingLoader`, `sameTickLoader`) answer each of the callers whose documents it sent together.
 */
export async function insertEach(insertMany: () => Promise<unknown>, count: number, what: string): Promise<(boolean | Error)[]> {
  const outcome: (boolean | Error)[] = Array.from({ length: count }, () => true);
  try {
    await insertMany();
  } catch (error) {
    const list = writeErrorsOf(error);
    if (list.length === 0) throw error;
    for (const { index, code } of list) {
      if (index === undefined) throw error;
      outcome[index] = code === 11000 ? false : new Error(`${what} insert failed (code ${String(code)})`);
    }
  }
  return outcome;
}
