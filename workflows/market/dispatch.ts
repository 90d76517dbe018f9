/** Applies one command to the book, then expires what came due meanwhile. */
import { cancel } from './cancel';
import { changeStatus } from './change-status';
import { expire } from './expire';
import { place } from './place';
import { giveBack, remove } from './remove';
import type { Command, LoadedRun } from './run-state';

export async function dispatch(run: LoadedRun, command: Command): Promise<void> {
  if (command.kind === 'place') {
    // An empty one held only copies of hashes this run took (DEDUPED_HANDOFFS): no step.
    if (command.hashes.length > 0) await place(run, command.hashes);
  } else if (command.kind === 'cancel') run.results[command.id] = await cancel(run, command.request);
  else if (command.kind === 'remove') await remove(run, command.request);
  else if (command.kind === 'return') await giveBack(run, command.request);
  else run.results[command.id] = await changeStatus(run, command.change);
  await expire(run);
}
