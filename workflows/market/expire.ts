/** Expiry: orders past their expiration leave the book, one pass per expiration second due. */
import { patched } from '@temporalio/workflow';
import { EXPIRY_AT_DEADLINE } from '../patches';
import { nowSeconds } from './clock';
import type { LoadedRun } from './run-state';
import { write } from './write-step';

export async function expire(run: LoadedRun): Promise<void> {
  const { book } = run;
  let next = book.nextExpiration();
  if (next === null || next > nowSeconds()) return;
  if (!patched(EXPIRY_AT_DEADLINE)) return void (await write(run, book.expire(nowSeconds()), new Set(), []));
  // Each pass's time comes from the book, never from the task's clock: a retried task repeats the
  // lost attempt's passes exactly, and only then makes the ones that came due since.
  for (; next !== null && next <= nowSeconds(); next = book.nextExpiration()) await write(run, book.expire(next), new Set(), []);
}
