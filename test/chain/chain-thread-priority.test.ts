import { execFileSync } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { createEdrChain } from '../../src/chain/local/edr-provider';
import { lowerChainThreadPriority, processThreads } from '../../src/chain/local/chain-thread-priority';

const linux = process.platform === 'linux';
const chainThreads = () => processThreads().filter((t) => t.name.startsWith('tokio'));

describe('the embedded chain\'s thread priority', () => {
  const before = new Map<number, number>();

  afterAll(() => {
    // Put this test process's threads back where they were, where allowed (root); otherwise the
    // chain tests after this one in the same jest worker run with a lower-priority EVM, which is harmless.
    for (const [tid, nice] of before) {
      try {
        setPriority(tid, nice);
      } catch {
        // not allowed to lower a nice value, or the thread ended
      }
    }
  });

  (linux ? it : it.skip)('when lowered, then only EDR\'s threads get the nice value: the main thread and a process spawned after keep theirs', async () => {
    const chain = await createEdrChain({ chainId: 56, accounts: [], nativeBalance: 0n });
    expect(await chain.request({ id: 1, method: 'eth_blockNumber' })).toMatchObject({ result: expect.any(String) });
    const threads = processThreads();
    for (const { tid } of threads) before.set(tid, getPriority(tid));
    const mainNice = getPriority(process.pid);
    expect(chainThreads().length).toBeGreaterThan(0);

    const priority = lowerChainThreadPriority(mainNice + 10, 0);
    priority.stop();

    const lowered = chainThreads();
    expect(priority.lowered().sort()).toEqual(lowered.map((t) => t.tid).sort());
    for (const { tid } of lowered) expect(getPriority(tid)).toBeGreaterThanOrEqual(mainNice + 10);
    for (const { tid, name } of processThreads()) {
      if (!name.startsWith('tokio')) expect({ name, nice: getPriority(tid) }).toEqual({ name, nice: before.get(tid) ?? mainNice });
    }
    // Field 19 of /proc/<pid>/stat is the nice value; a child inherits the spawning (main) thread's.
    const childNice = Number(execFileSync('sh', ['-c', 'cut -d" " -f19 /proc/self/stat']).toString().trim());
    expect(childNice).toBe(mainNice);
    // The chain still answers at its lower priority.
    expect(await chain.request({ id: 2, method: 'eth_chainId' })).toEqual({ jsonrpc: '2.0', id: 2, result: '0x38' });
  });

  (linux ? it : it.skip)('when a chain thread is found at a higher priority again (a thread started since), then the next sweep lowers it', async () => {
    const chain = await createEdrChain({ chainId: 56, accounts: [], nativeBalance: 0n });
    await chain.request({ id: 1, method: 'eth_blockNumber' });
    const mainNice = getPriority(process.pid);
    for (const { tid } of processThreads()) if (!before.has(tid)) before.set(tid, getPriority(tid));
    const priority = lowerChainThreadPriority(mainNice + 10, 50);
    try {
      const [thread] = chainThreads();
      try {
        setPriority(thread.tid, mainNice); // what a new thread inherits; only root may lower a nice value
      } catch {
        return; // not allowed here: the first test covers the sweep itself
      }
      expect(getPriority(thread.tid)).toBe(mainNice);
      const deadline = Date.now() + 5_000;
      while (getPriority(thread.tid) < mainNice + 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(getPriority(thread.tid)).toBe(mainNice + 10);
    } finally {
      priority.stop();
    }
  });

  it('when the nice value is 0, then no thread is touched', () => {
    const priority = lowerChainThreadPriority(0);
    expect(priority.lowered()).toEqual([]);
    priority.stop();
  });
});
