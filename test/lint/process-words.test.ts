import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

// Plain CommonJS shared with the commit-msg hook, which runs without a TypeScript loader.
const { findProcessWords } = require('../../scripts/git-hooks/process-words.js') as {
  findProcessWords(text: string): { line: number; name: string; match: string }[];
};

const root = join(__dirname, '..', '..');

/** What the repository says of itself: docs, code, tests, benchmark output, build and CI files. */
const SCANNED = [
  'README.md', 'docs', 'src', 'workflows', 'activities', 'workers', 'test', 'bench', 'scripts',
  'contracts', 'deploy', '.ci', 'Dockerfile', 'docker-compose.yml', 'package.json',
  'eslint.config.mjs', 'jest.config.js',
];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'data', '.git']);

function filesUnder(base: string, entry: string): string[] {
  const path = join(base, entry);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return [];
  }
  if (stat.isFile()) return [path];
  if (!stat.isDirectory() || SKIPPED_FOLDERS.has(entry.split('/').pop() ?? '')) return [];
  return readdirSync(path).flatMap((name) => filesUnder(base, join(entry, name)));
}

/** `file:line: "words" (kind)` for every process word in the text files under `entries`. */
function scan(base: string, entries: string[]): string[] {
  const hits: string[] = [];
  for (const file of entries.flatMap((entry) => filesUnder(base, entry))) {
    const bytes = readFileSync(file);
    if (bytes.includes(0)) continue; // binary
    for (const hit of findProcessWords(bytes.toString('utf8'))) {
      hits.push(`${relative(base, file)}:${hit.line}: "${hit.match}" (${hit.name})`);
    }
  }
  return hits;
}

describe('process words lint', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'predex-process-words-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a file speaks of development history, then the scan names its file and line', () => {
    mkdirSync(join(dir, 'docs', 'node_modules'), { recursive: true });
    const words = [['St', 'op 34'], ['Fin', 'dings 36'], ['iss', 'ue 6'], ['iss', 'ue4'], ['re', 'viewed'], ['def', 'ect found']].map((p) => p.join(''));
    writeFileSync(join(dir, 'docs', 'notes.md'), ['# Notes', ...words.map((w) => `As ${w} says.`)].join('\n'));
    writeFileSync(join(dir, 'docs', 'node_modules', 'dep.md'), words.join('\n'));
    writeFileSync(join(dir, 'docs', 'clean.md'), 'It issues a new secret; stop the server; a preview.\n');
    expect(scan(dir, ['docs'])).toEqual(words.map((w, i) => expect.stringMatching(new RegExp(`^docs/notes\\.md:${i + 2}: "${w}"`, 'i'))));
  });

  it('when the repository is scanned, then no README, doc, code, test or benchmark output speaks of development history', () => {
    const hits = scan(root, SCANNED);
    // The message lists each place to rewrite: say what the code does and why, not how it came to be.
    expect(hits.join('\n')).toBe('');
  });
});
