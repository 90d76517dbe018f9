/**
 * The client is a package of its own: its types are the server's OpenAPI document (regenerated,
 * never stale), it imports no server code, and the build emits its declarations where
 * package.json `exports` points.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');

/** Pure modules the client shares with the server: amounts, ticks, typed data, decimals. */
const SHARED = ['src/signing/order.ts', 'src/signing/order-amounts.ts', 'src/signing/price-ticks.ts', 'src/money/index.ts', 'src/money/parse-units-strict.ts', 'src/money/format-canonical.ts'];
const PACKAGES = new Set(['viem', 'viem/accounts', 'socket.io-client']);

describe('the client package', () => {
  it('when the server\'s OpenAPI document is turned into types again, then the committed file is the same', () => {
    const run = spawnSync(TSX, ['scripts/generate-client-types.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('when its import graph is walked, then it reaches only its own files, the shared pure modules, viem and socket.io-client', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      const rel = relative(ROOT, file);
      if (seen.has(rel)) return;
      seen.add(rel);
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
      for (const statement of source.statements) {
        if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier) continue;
        const spec = (statement.moduleSpecifier as ts.StringLiteral).text;
        if (!spec.startsWith('.')) packages.add(spec);
        else visit(require.resolve(join(dirname(file), spec)).replace(/\.js$/, '.ts'));
      }
    };
    visit(join(ROOT, 'src', 'client', 'index.ts'));
    expect([...seen].filter((f) => !f.startsWith('src/client/') && !SHARED.includes(f))).toEqual([]);
    expect([...packages].filter((p) => !PACKAGES.has(p))).toEqual([]);
  });

  it('when declarations are emitted, then they land where package.json exports points', () => {
    const out = mkdtempSync(join(tmpdir(), 'client-dts-'));
    try {
      execFileSync(TSC, ['-p', 'tsconfig.client.json', '--outDir', out], { cwd: ROOT });
      const exported = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }> }).exports['./client'];
      const dts = join(out, relative('./dist', exported.types));
      expect(existsSync(dts)).toBe(true);
      expect(readFileSync(dts, 'utf8')).toContain('createPredexClient');
      expect(exported.default.replace(/\.js$/, '')).toBe(exported.types.replace(/\.d\.ts$/, ''));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
