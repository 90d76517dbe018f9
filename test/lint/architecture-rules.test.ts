import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const linter = join(__dirname, 'lint-snippets.mjs');

/**
 * Code that lint must judge, as if it were the file at `path` (which must exist, for type-aware
 * rules). Linted together, in one child process (the flat config is an ES module, which jest's
 * module sandbox cannot import), so the project's program is built once.
 */
const SNIPPETS = {
  workflowIo: {
    path: 'workflows/index.ts',
    code: [
      "import { readFileSync } from 'node:fs';",
      "import mongoose from 'mongoose';",
      "import { Client } from '@temporalio/client';",
      'export const used = [readFileSync, mongoose, Client];',
      'export const t = () => setTimeout(() => 1, 5);',
      'export const e = () => process.env.X;',
      '',
    ].join('\n'),
  },
  engineImports: {
    path: 'src/engine/index.ts',
    code: "import { AppError } from '../errors';\nimport { proxyActivities } from '@temporalio/workflow';\nexport const x = [AppError, proxyActivities];\n",
  },
  floating: {
    path: 'src/api/app.ts',
    code: 'async function work(): Promise<void> {}\nexport function go(): void {\n  work();\n}\n',
  },
  deterministic: {
    path: 'workflows/index.ts',
    code: "import { sleep } from '@temporalio/workflow';\nexport async function w(): Promise<void> {\n  await sleep(1);\n}\n",
  },
};
type Snippet = keyof typeof SNIPPETS;

let linted: Record<Snippet, string[]> | undefined;
function ruleIds(name: Snippet): string[] {
  if (!linted) {
    const names = Object.keys(SNIPPETS) as Snippet[];
    const run = spawnSync(process.execPath, [linter], { cwd: root, input: JSON.stringify(names.map((n) => SNIPPETS[n])), encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
    const ids = JSON.parse(run.stdout) as string[][];
    linted = Object.fromEntries(names.map((n, i) => [n, ids[i]])) as Record<Snippet, string[]>;
  }
  return linted[name];
}

describe('architecture lint rules', () => {
  it('when workflow code imports Node built-ins or I/O libraries, or uses timers or process, then lint fails on each', () => {
    const ids = ruleIds('workflowIo');
    expect(ids.filter((id) => id === 'no-restricted-imports')).toHaveLength(3);
    expect(ids.filter((id) => id === 'no-restricted-globals')).toHaveLength(2);
  });

  it('when the engine imports anything outside itself, then lint fails on each', () => {
    expect(ruleIds('engineImports').filter((id) => id === 'no-restricted-imports')).toHaveLength(2);
  });

  it('when a promise is left floating, then lint fails', () => {
    expect(ruleIds('floating')).toContain('@typescript-eslint/no-floating-promises');
  });

  it('when deterministic code keeps to the rules, then lint passes', () => {
    expect(ruleIds('deterministic')).toEqual([]);
  });
});
