import { isPortOpen } from '../embedded/free-port';
import { portHolder } from './port-holder';

export interface NeededPort {
  port: number;
  /** What listens there, e.g. `API`. */
  what: string;
  /** The variable that moves it, e.g. `PORT`. */
  variable: string;
}

/** One line per port of `ports` that something already listens on: who (where the OS says) and what to do. */
export async function portsInUse(host: string, ports: NeededPort[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { port, what, variable } of ports) {
    if (!(await isPortOpen(host, port))) continue;
    const holder = portHolder(port);
    const who = holder ? `pid ${holder.pid} (${holder.name})` : 'a process the OS does not name to this user';
    problems.push(`Port ${port} (${what}) on ${host} is in use by ${who}, which this start did not make. Stop it, or set ${variable} to a free port.`);
  }
  return problems;
}
