/** How a benchmark ends: its JSON result written for later comparison, its exit code for scripts. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes `result` as indented JSON to `file`, creating bench/results/ on a fresh clone. */
export function writeBenchResult(file: string, result: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}

/** Runs `main` and exits 0, or logs the failure and exits 1 (open sockets must not keep it alive). */
export function runBench(main: () => Promise<void>, log: (line: string) => void): void {
  main().then(() => process.exit(0), (error: unknown) => {
    log(error instanceof Error ? error.stack ?? error.message : String(error));
    process.exit(1);
  });
}
