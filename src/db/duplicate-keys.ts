/** One failed document of an unordered write, as the driver reports it; Mongoose wraps it in `err`. */
interface DriverWriteError {
  index?: number;
  code?: number;
  err?: { index?: number; code?: number };
}

/**
 * The per-document errors of a failed unordered write (`insertMany`, `bulkWrite`), each with the
 * index of its document and its code; none when the write failed as a whole.
 */
export function writeErrorsOf(error: unknown): { index?: number; code?: number }[] {
  const writeErrors = (error as { writeErrors?: DriverWriteError[] | DriverWriteError }).writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.map((e) => ({ index: e.index ?? e.err?.index, code: e.code ?? e.err?.code }));
}

/** A bulk write whose every error is a duplicate key: the documents were already there (a retry). */
export function onlyDuplicateKeys(error: unknown): boolean {
  const list = writeErrorsOf(error);
  return list.length > 0 && list.every((e) => e.code === 11000);
}
