import type { ChildProcessWithoutNullStreams, ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

type PipedChild = ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>;

/** What a spawned child (stdout and stderr piped) prints, and a bounded wait for a line of it. */
export function watchOutput(child: PipedChild, name: string) {
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    text: () => output,
    /** Resolves once `text` was printed; fails at the deadline or when the child exits first. */
    async printed(text: string, timeoutMs = 30_000): Promise<void> {
      const until = Date.now() + timeoutMs;
      while (!output.includes(text)) {
        if (Date.now() > until || child.exitCode !== null) throw new Error(`${name} never printed ${text}; output:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
