/** A bulk write whose every error is a duplicate key: the documents were already there (a retry). */
export function onlyDuplicateKeys(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: { code?: number }[] | { code?: number } }).writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : null;
  return list !== null && list.length > 0 && list.every((e) => e.code === 11000);
}
