import { readFileSync } from 'node:fs';

/** One variable of a running process's environment as it started with it (Linux /proc); undefined if unset. */
export function processEnvVar(pid: number, name: string): string | undefined {
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return environ.find((v) => v.startsWith(`${name}=`))?.slice(name.length + 1);
}
