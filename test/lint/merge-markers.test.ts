import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
// A conflict's opening and closing lines; `=======` alone is also a Markdown heading underline.
const MARKER = '^(<<<<<<<|>>>>>>>)( |$)';

/** `file:line:text` of every marker line in the files git tracks (git grep exits 1 on none). */
function markerLines(cwd: string): string[] {
  try {
    return execFileSync('git', ['grep', '-n', '-I', '-E', MARKER], { cwd, encoding: 'utf8' }).trim().split('\n');
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

describe('merge conflict markers', () => {
  it('when the repository is scanned, then no tracked file holds a conflict marker', () => {
    expect(markerLines(root)).toEqual([]);
  });

  it('when a line opens a conflict, then the pattern matches it and not a plain rule of equals signs', () => {
    const re = new RegExp(MARKER);
    expect(re.test('<<<<<<< HEAD')).toBe(true);
    expect(re.test('>>>>>>> some-branch')).toBe(true);
    expect(re.test('=======')).toBe(false);
    expect(re.test('a <<<<<<< b')).toBe(false);
  });
});
