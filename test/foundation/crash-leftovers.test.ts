/**
 * What a supervisor killed without stopping its tree leaves behind, and how the next start deals
 * with it: its Node children leave on their own; the processes it recorded in DATA_DIR are stopped
 * when they provably are the ones it started, and nothing else is touched; a port held by anything
 * else is reported with its holder and the variable that moves it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { portsInUse } from '../../src/supervisor/port-check';
import { identityOf } from '../../src/supervisor/process-identity';
import { startRecordFile, StartedProcesses } from '../../src/supervisor/started-processes';
import { watchOutput } from '../helpers/child-output';

const linux = process.platform === 'linux' ? describe : describe.skip;
const spawned: ChildProcess[] = [];
const orphans: number[] = [];
const pidRuns = (pid: number) => identityOf(pid) !== undefined;

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  spawned.push(child);
  return child;
}

async function gone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!pidRuns(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !pidRuns(pid);
}

linux('after a crash of the supervisor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'predex-leftovers-'));
  afterAll(() => {
    for (const child of spawned) child.kill('SIGKILL');
    for (const pid of orphans.filter(pidRuns)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('when the supervisor is killed with SIGKILL, then its Node child leaves within two seconds, even with a drain that never ends', async () => {
    const standIn = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'fixtures', 'supervisor-stand-in.ts')], { stdio: ['ignore', 'pipe', 'pipe'] });
    spawned.push(standIn);
    const out = watchOutput(standIn, 'supervisor stand-in');
    await out.printed('child running');
    const pid = Number(/child pid (\d+)/.exec(out.text())![1]);
    orphans.push(pid);
    standIn.kill('SIGKILL');
    expect(await gone(pid, 2_500)).toBe(true);
  }, 30_000);

  it('when a previous start recorded a server that still runs, then the next start stops it and says so in one line', async () => {
    const data = mkdtempSync(join(dir, 'stops-'));
    const server = sleeper();
    const first = await StartedProcesses.take(data, () => undefined);
    first.started('ferretdb', server.pid!);
    const record = JSON.parse(readFileSync(startRecordFile(data), 'utf8')) as { dataDir: string; processes: { name: string; pid: number; startTime: string; cmdline: string[] }[] };
    expect(record.dataDir).toBe(data);
    expect(record.processes).toEqual([expect.objectContaining({ name: 'ferretdb', pid: server.pid, cmdline: ['sleep', '300'], startTime: expect.stringMatching(/^\d+$/) })]);

    const said: string[] = [];
    const second = await StartedProcesses.take(data, (line) => said.push(line));
    expect(await gone(server.pid!, 1_000)).toBe(true);
    expect(said).toEqual([`stopped what the previous start (pid ${process.pid}) left running in ${data}: ferretdb (pid ${server.pid})`]);
    second.release();
  });

  it('when the recorded pid runs a process of another start time or command line, then it is left alone', async () => {
    const data = mkdtempSync(join(dir, 'foreign-'));
    const reused = sleeper();
    const other = sleeper();
    const first = await StartedProcesses.take(data, () => undefined);
    first.started('temporal', reused.pid!);
    first.started('ferretdb', other.pid!);
    // The same pids, as if reused by processes this start did not make.
    const file = startRecordFile(data);
    const record = JSON.parse(readFileSync(file, 'utf8')) as { processes: { name: string; startTime: string; cmdline: string[] }[] };
    record.processes[0].startTime = String(Number(record.processes[0].startTime) - 1);
    record.processes[1].cmdline = ['sleep', '301'];
    writeFileSync(file, JSON.stringify(record));

    const said: string[] = [];
    const second = await StartedProcesses.take(data, (line) => said.push(line));
    await new Promise((r) => setTimeout(r, 300));
    expect([pidRuns(reused.pid!), pidRuns(other.pid!)]).toEqual([true, true]);
    expect(said).toEqual([]);
    second.release();
  });

  it('when the recorded supervisor still runs, then the start stops with its pid named; when its pid was reused, the start goes on', async () => {
    const data = mkdtempSync(join(dir, 'owner-'));
    const owner = sleeper();
    const identity = identityOf(owner.pid!)!;
    const write = (startTime: string) => writeFileSync(startRecordFile(data), JSON.stringify({ version: 1, dataDir: data, supervisor: { ...identity, startTime }, processes: [] }));
    write(identity.startTime);
    await expect(StartedProcesses.take(data, () => undefined)).rejects.toThrow(`Another 'npm start' (pid ${owner.pid}) is using ${data}. Stop it first, or set DATA_DIR.`);
    write(String(Number(identity.startTime) + 1));
    const taken = await StartedProcesses.take(data, () => undefined);
    expect(pidRuns(owner.pid!)).toBe(true);
    taken.release();
  });

  it('when a port is held by a process of no start of ours, then the message names its pid, its name and the variable that moves the port', async () => {
    const port = await freePort();
    const holder = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${port}, '127.0.0.1', () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'pipe'] });
    spawned.push(holder);
    await watchOutput(holder, 'port holder').printed('listening');
    const free = await freePort();
    expect(await portsInUse('127.0.0.1', [{ port, what: 'API', variable: 'PORT' }, { port: free, what: 'chain JSON-RPC', variable: 'CHAIN_PORT' }])).toEqual([
      `Port ${port} (API) on 127.0.0.1 is in use by pid ${holder.pid} (node), which this start did not make. Stop it, or set PORT to a free port.`,
    ]);
  });

  it('when the holder listens on every address, then it is still named', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '::', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const [line] = await portsInUse('127.0.0.1', [{ port, what: 'FerretDB', variable: 'MONGODB_PORT' }]);
      expect(line).toContain(`in use by pid ${process.pid} (`);
      expect(line).toContain('set MONGODB_PORT to a free port');
    } finally {
      server.close();
    }
  });
});
