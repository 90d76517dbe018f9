/**
 * The supervisor's children (src/supervisor/child-service.ts): started with their Node options
 * (the worker's preload), restarted after an exit of their own with a doubling back-off that
 * starts short, and stopped on request.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildService, restartDelayMs } from '../../src/supervisor/child-service';

describe('a supervised child process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'predex-child-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when the back-off is asked for, then it doubles from 250 ms with each recent restart', () => {
    expect([1, 2, 3, 4, 5].map(restartDelayMs)).toEqual([250, 500, 1_000, 2_000, 4_000]);
  });

  it('when a child exits twice on its own, then it is restarted after each back-off, with its preload, and stops on request', async () => {
    const log = join(dir, 'starts.log');
    const preload = join(dir, 'preload.js');
    const script = join(dir, 'child.js');
    writeFileSync(preload, `require('node:fs').appendFileSync(${JSON.stringify(log)}, 'preload ' + Date.now() + '\\n');\n`);
    // Exits with 1 on its first two starts; the third stays up until it is stopped.
    writeFileSync(script, [
      "const fs = require('node:fs');",
      `const log = ${JSON.stringify(log)};`,
      "fs.appendFileSync(log, 'start ' + Date.now() + '\\n');",
      "const starts = fs.readFileSync(log, 'utf8').split('\\n').filter((l) => l.startsWith('start')).length;",
      'if (starts < 3) process.exit(1);',
      'setInterval(() => undefined, 1000);',
    ].join('\n'));
    const said: string[] = [];
    const gaveUp: string[] = [];
    const child = new ChildService({ name: 'probe', script, env: process.env, onGiveUp: (reason) => gaveUp.push(reason), log: (line) => said.push(line), nodeArgs: ['--require', preload] });
    const starts = () => (existsSync(log) ? readFileSync(log, 'utf8') : '').split('\n').filter((l) => l.startsWith('start')).map((l) => Number(l.split(' ')[1]));
    child.start();
    try {
      const until = Date.now() + 20_000;
      while (Date.now() < until && starts().length < 3) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await child.stop(5_000);
    }

    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['preload', 'start', 'preload', 'start', 'preload', 'start']);
    const [first, second, third] = starts();
    // Each gap holds the back-off (plus a Node start); an upper bound would time this machine.
    expect(second - first).toBeGreaterThanOrEqual(restartDelayMs(1));
    expect(third - second).toBeGreaterThanOrEqual(restartDelayMs(2));
    expect(said).toEqual(['probe exited (1); restarting', 'probe exited (1); restarting']);
    expect(gaveUp).toEqual([]);
  }, 30_000);

  it('when its Node binary cannot be started, then the tree is told to stop, once, with the binary named, and nothing is thrown', async () => {
    const script = join(dir, 'never-runs.js');
    writeFileSync(script, 'process.exit(0);\n');
    const missing = join(dir, 'no-such-node');
    const gaveUp: string[] = [];
    const said: string[] = [];
    const child = new ChildService({ name: 'probe', script, env: process.env, onGiveUp: (reason) => gaveUp.push(reason), log: (line) => said.push(line), nodeBinary: missing });
    child.start(); // an unhandled 'error' would fail this test as an uncaught exception
    const until = Date.now() + 10_000;
    while (Date.now() < until && gaveUp.length === 0) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 500)); // no restart, no second word
    await child.stop(1_000);
    expect(gaveUp).toEqual([`probe could not start: ${missing} (ENOENT)`]);
    expect(said).toEqual([]);
  }, 20_000);
});
