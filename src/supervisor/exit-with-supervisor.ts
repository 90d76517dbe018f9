/** How often the parent pid is checked, besides the IPC channel's 'disconnect'. */
const PARENT_CHECK_MS = 500;
/** The drain a process gets once its supervisor is gone, before it exits regardless. */
const GRACE_MS = 1_000;

/**
 * For the API and the worker under `npm start`: when the supervisor is gone (SIGKILL, the OOM
 * killer, a closed terminal), stop within about a second instead of running on as an orphan that
 * writes to the data folder and holds the ports the next start needs. The supervisor starts them
 * with an IPC channel, which the kernel closes when the supervisor dies ('disconnect'); a changed
 * parent pid is the second signal. The process stops as on SIGTERM (its own shutdown handlers),
 * and exits after GRACE_MS if that takes longer. Without the channel (started by anything else)
 * this does nothing.
 */
export function exitWithSupervisor(): void {
  if (!process.connected || !process.channel) return;
  // The channel must not keep the process alive once its work is done.
  process.channel.unref();
  const parent = process.ppid;
  let gone = false;
  const leave = () => {
    if (gone) return;
    gone = true;
    process.stderr.write(`supervisor (pid ${parent}) is gone; stopping\n`);
    setTimeout(() => process.exit(1), GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  };
  process.once('disconnect', leave);
  setInterval(() => {
    if (process.ppid !== parent) leave();
  }, PARENT_CHECK_MS).unref();
}
