import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const hook = join(root, 'scripts', 'git-hooks', 'commit-msg');
const prepare = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.prepare;

const GOOD = [
  'chain: spend a lost send\'s nonce when the node does not hold it',
  '',
  'A broadcast still in flight was "not found"; a 0-value transfer to the',
  'operator at the same nonce makes "not sent" final.',
  '',
].join('\n');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'predex-commit-msg-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function runHook(message: string): { status: number | null; stderr: string } {
  const file = join(dir, 'COMMIT_EDITMSG');
  writeFileSync(file, message);
  const run = spawnSync(process.execPath, [hook, file], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

function git(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('commit-msg hook', () => {
  it('when a message has an area, a short subject, a blank line and a body, then it passes', () => {
    expect(runHook(GOOD)).toEqual({ status: 0, stderr: '' });
    expect(runHook(`gateway, settlement: share one bounded map\n\nWhy.\n# a comment git strips\n`).status).toBe(0);
  });

  it('when the subject is longer than 72 characters, then it fails and says the length', () => {
    const subject = `orders: ${'x'.repeat(65)}`;
    const result = runHook(`${subject}\n\nBody.\n`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`the subject is ${subject.length} characters; at most 72`);
  });

  it('when the subject has no area prefix, then it fails', () => {
    const result = runHook('Fix the settlement retry\n\nBody.\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('starts with its area');
  });

  it('when the second line is not blank or there is no body, then it fails on each', () => {
    expect(runHook('orders: cap the batch\nbody right away\n').stderr).toContain('the second line is blank');
    const subjectOnly = runHook('orders: cap the batch\n');
    expect(subjectOnly.status).toBe(1);
    expect(subjectOnly.stderr).toContain('a body follows the blank line');
  });

  it('when the message speaks of the development process, then it fails naming the words', () => {
    const words = [['Fin', 'ding 70'], ['st', 'op 34'], ['iss', 'ue 6']].map((parts) => parts.join(''));
    const result = runHook(`bench: rerun on the new machine\n\nAs ${words.join(', ')} showed.\n`);
    expect(result.status).toBe(1);
    for (const word of words) expect(result.stderr).toContain(`"${word}"`);
  });

  it('when git writes the subject itself (merge, revert, fixup), then it passes', () => {
    expect(runHook("Merge branch 'wt-docs'\n").status).toBe(0);
    expect(runHook('Revert "orders: cap the batch"\n\nThis reverts commit abc.\n').status).toBe(0);
    expect(runHook('fixup! orders: cap the batch\n').status).toBe(0);
  });

  it('when npm runs prepare outside a git work tree or without git, then it succeeds', () => {
    const noRepo = spawnSync('sh', ['-c', prepare], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: dir } });
    expect(noRepo.status).toBe(0);
    const noGit = spawnSync('/bin/sh', ['-c', prepare], { cwd: dir, encoding: 'utf8', env: { PATH: dir } });
    expect(noGit.status).toBe(0);
  });

  it('when npm runs prepare in a clone, then git runs the hook on every commit', () => {
    expect(git(dir, 'init', '-q').status).toBe(0);
    const run = spawnSync('sh', ['-c', prepare], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(git(dir, 'config', 'core.hooksPath').stdout.trim()).toBe('scripts/git-hooks');
    // The clone's own copy of the hooks, as a checkout of this repository has them.
    mkdirSync(join(dir, 'scripts'));
    cpSync(join(root, 'scripts', 'git-hooks'), join(dir, 'scripts', 'git-hooks'), { recursive: true });
    writeFileSync(join(dir, 'a.txt'), 'a');
    git(dir, 'add', 'a.txt');
    const refused = git(dir, 'commit', '-q', '-m', 'Fix things');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('starts with its area');
    expect(git(dir, 'commit', '-q', '-m', 'docs: add a\n\nA body saying why.').status).toBe(0);
  });
});
