import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/** `file:line: target` for every relative link under `base` that leaves it or names no file in it. */
function brokenLinks(base: string): string[] {
  const broken: string[] = [];
  for (const file of [join(base, 'README.md'), ...markdownFiles(join(base, 'docs'))]) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue; // web links, anchors
        const path = resolve(dirname(file), target.split('#')[0]);
        if (relative(base, path).startsWith('..') || !existsSync(path)) broken.push(`${relative(base, file)}:${i + 1}: ${target}`);
      }
    });
  }
  return broken;
}

describe('links in README and docs', () => {
  it('when README and docs link to a file, then it is a file of this repository', () => {
    expect(brokenLinks(root)).toEqual([]);
  });

  it('when a link leaves the repository or names a missing file, then the check names it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'predex-doc-links-'));
    try {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'api.md'), 'See [the README](../README.md#tests).\n');
      writeFileSync(join(dir, 'README.md'), '[spec](../shared/spec/api-v1.md)\n[gone](docs/nowhere.md)\n[ok](docs/api.md) [web](https://example.com) [here](#tests)\n');
      expect(brokenLinks(dir)).toEqual(['README.md:1: ../shared/spec/api-v1.md', 'README.md:2: docs/nowhere.md']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
