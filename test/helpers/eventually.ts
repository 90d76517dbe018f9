/** What a probe answers while the state it waits for has not come yet. */
type NotYet = undefined | null | false;

export interface EventuallyOptions {
  /** How long to wait before failing; default 30 s. */
  timeoutMs?: number;
  /** How long to wait between probes; default 100 ms. */
  everyMs?: number;
}

/**
 * Polls `probe` on the real clock until it answers anything but undefined, null or false, and
 * returns that answer; after `timeoutMs` fails naming `what` it waited for and the last answer.
 */
export async function eventually<T>(what: string, probe: () => T | NotYet | Promise<T | NotYet>, { timeoutMs = 30_000, everyMs = 100 }: EventuallyOptions = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined && answer !== null && answer !== false) return answer;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last answer: ${String(answer)})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
