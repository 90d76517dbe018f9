import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * One supervisor per data folder: two would fight over the same SQLite files. A lock left by a
 * process that no longer runs (killed -9, machine reboot) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'supervisor.pid');
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && isRunning(pid)) {
      throw new Error(`Another 'npm start' (pid ${pid}) is using ${dataDir}. Stop it first, or set DATA_DIR.`);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}
