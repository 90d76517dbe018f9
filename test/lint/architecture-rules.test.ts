import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const eslintBin = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');

/**
 * Lints `code` as if it were the file at `path` (which must exist, for type-aware rules), through
 * the ESLint CLI: the flat config is an ES module, which jest's module sandbox cannot import.
 */
async function ruleIds(code: string, path: string): Promise<string[]> {
  const run = spawnSync(process.execPath, [eslintBin, '--stdin', '--stdin-filename', path, '--format', 'json'], { cwd: root, input: code, encoding: 'utf8' });
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result.messages.map((m) => m.ruleId ?? m.message);
}

describe('architecture lint rules', () => {
  it('when workflow code imports Node built-ins or I/O libraries, or uses timers or process, then lint fails on each', async () => {
    const code = [
      "import { readFileSync } from 'node:fs';",
      "import mongoose from 'mongoose';",
      "import { Client } from '@temporalio/client';",
      'export const used = [readFileSync, mongoose, Client];',
      'export const t = () => setTimeout(() => 1, 5);',
      'export const e = () => process.env.X;',
      '',
    ].join('\n');
    const ids = await ruleIds(code, 'workflows/index.ts');
    expect(ids.filter((id) => id === 'no-restricted-imports')).toHaveLength(3);
    expect(ids.filter((id) => id === 'no-restricted-globals')).toHaveLength(2);
  });

  it('when the engine imports anything outside itself, then lint fails on each', async () => {
    const code = "import { AppError } from '../errors';\nimport { proxyActivities } from '@temporalio/workflow';\nexport const x = [AppError, proxyActivities];\n";
    expect((await ruleIds(code, 'src/engine/index.ts')).filter((id) => id === 'no-restricted-imports')).toHaveLength(2);
  });

  it('when a promise is left floating, then lint fails', async () => {
    const code = 'async function work(): Promise<void> {}\nexport function go(): void {\n  work();\n}\n';
    expect(await ruleIds(code, 'src/api/app.ts')).toContain('@typescript-eslint/no-floating-promises');
  });

  it('when deterministic code keeps to the rules, then lint passes', async () => {
    expect(await ruleIds("import { sleep } from '@temporalio/workflow';\nexport async function w(): Promise<void> {\n  await sleep(1);\n}\n", 'workflows/index.ts')).toEqual([]);
  });
});
