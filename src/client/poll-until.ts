/** Reads a record until `done` says so, reporting each new status; past the deadline, the error `late` makes. */
export async function pollUntil<T extends { status: string }>(
  read: () => Promise<T>,
  options: { done: (value: T) => boolean; timeoutMs: number; everyMs?: number; onProgress?: (value: T) => void; late: (value: T) => Error },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let last = '';
  for (;;) {
    const value = await read();
    if (value.status !== last) {
      last = value.status;
      options.onProgress?.(value);
    }
    if (options.done(value)) return value;
    if (Date.now() > deadline) throw options.late(value);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 250));
  }
}
