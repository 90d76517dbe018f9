import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface PortHolder {
  pid: number;
  name: string;
}

/** Socket inodes listening on `port` (any address), from the kernel's TCP tables. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT; state 0A is LISTEN; field 9 is the socket's inode.
      if (fields.length < 10 || fields[3] !== '0A') continue;
      if (parseInt(fields[1].split(':')[1], 16) === port) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The process holding one of `inodes` open, among those whose descriptors this user may read. */
function ownerOfInodes(inodes: Set<string>): PortHolder | undefined {
  const links = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      try {
        if (links.has(readlinkSync(`/proc/${entry}/fd/${fd}`))) {
          return { pid: Number(entry), name: readFileSync(`/proc/${entry}/comm`, 'utf8').trim() };
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** `ss -ltnpH` names the holder where /proc could not (e.g. with more privileges). */
function ownerFromSs(port: number): PortHolder | undefined {
  try {
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8', timeout: 2_000, stdio: ['ignore', 'pipe', 'ignore'] });
    const match = /users:\(\("([^"]+)",pid=(\d+)/.exec(out);
    return match ? { pid: Number(match[2]), name: match[1] } : undefined;
  } catch {
    return undefined;
  }
}

/** The process listening on `port`, where the OS tells us (Linux); undefined where it does not. */
export function portHolder(port: number): PortHolder | undefined {
  const inodes = listeningInodes(port);
  return (inodes.size > 0 ? ownerOfInodes(inodes) : undefined) ?? ownerFromSs(port);
}
