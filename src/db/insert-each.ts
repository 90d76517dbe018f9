/**
 * The outcome per document of an unordered `insertMany`: true if inserted, false if its `_id` was
 * taken (a duplicate key), or an Error for that document alone. Lets a group commit
 * (`coalescingLoader`) answer each of the requests whose documents it sent together.
 */
interface WriteError {
  index?: number;
  code?: number;
  /** Mongoose wraps the driver's error. */
  err?: { index?: number; code?: number };
}

export async function insertEach(insertMany: () => Promise<unknown>, count: number, what: string): Promise<(boolean | Error)[]> {
  const outcome: (boolean | Error)[] = Array.from({ length: count }, () => true);
  try {
    await insertMany();
  } catch (error) {
    const writeErrors = (error as { writeErrors?: WriteError[] | WriteError }).writeErrors;
    const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : null;
    if (!list) throw error;
    for (const e of list) {
      const index = e.index ?? e.err?.index;
      if (index === undefined) throw error;
      const code = e.code ?? e.err?.code;
      outcome[index] = code === 11000 ? false : new Error(`${what} insert failed (code ${String(code)})`);
    }
  }
  return outcome;
}
