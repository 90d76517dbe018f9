/**
 * The TCP ports a process listens on, from /proc (Linux; elsewhere none). The Temporal dev server
 * binds its /metrics endpoint to a random free port and says so only in its log: this finds it
 * without a setting of the service.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { pidOf } from './cpu';

/** TCP state LISTEN in /proc/net/tcp. */
const LISTEN = '0A';

export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    }
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== LISTEN || !inodes.has(cols[9])) continue;
      ports.push(parseInt(cols[1].split(':')[1], 16));
    }
  }
  return [...new Set(ports)];
}

/**
 * The URL of the first `/metrics` endpoint in Prometheus text among the ports the process with
 * `role` (under `rootPid`) listens on, or null.
 */
export async function metricsUrlOf(rootPid: number, role: string, host: string): Promise<string | null> {
  const pid = pidOf(rootPid, role);
  if (pid === null) return null;
  for (const port of listeningPorts(pid)) {
    const url = `http://${host}:${port}/metrics`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const text = await res.text();
      if (res.ok && text.startsWith('# HELP')) return url;
    } catch {
      // Not HTTP (the gRPC port) or not answering: the next one.
    }
  }
  return null;
}
