/**
 * No folder imports one that imports it back: src/http and the other low-level folders sit below
 * the features, the features below src/api, and src/api below the process entries. Runtime
 * imports count (`import type` leaves no edge at run time); a process entry (`main.ts`) is outside
 * the graph, as nothing imports it. A pair that must stay mutual would be listed here; none is.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '..', '..');
const STILL_MUTUAL: string[] = [];

type Edges = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** The folder of a file: `src/<folder>` inside src/, else the top folder (workflows, activities, workers). */
function folderOf(file: string): string {
  const parts = relative(root, file).split('/');
  return parts[0] === 'src' ? `${parts[0]}/${parts[1]}` : parts[0];
}

function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specs: string[] = [];
  source.forEachChild((node) => {
    if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier)) return;
    const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
    if (!typeOnly && node.moduleSpecifier.text.startsWith('.')) specs.push(node.moduleSpecifier.text);
  });
  return specs.flatMap((spec) => resolveImport(file, spec) ?? []);
}

function folderEdges(): Edges {
  const edges: Edges = new Map();
  const files = ['src', 'workflows', 'activities', 'workers'].flatMap((dir) => sourceFiles(join(root, dir)));
  for (const file of files.filter((f) => !f.endsWith('/main.ts'))) {
    const from = folderOf(file);
    for (const target of runtimeImports(file)) {
      const to = folderOf(target);
      if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

function mutualPairs(edges: Edges): string[] {
  const pairs: string[] = [];
  for (const [a, targets] of edges) for (const b of targets) if (a < b && edges.get(b)?.has(a)) pairs.push(`${a} <-> ${b}`);
  return pairs.sort();
}

describe('folder import cycles', () => {
  it('when two folders import each other, then the pair is found', () => {
    const edges: Edges = new Map([['src/a', new Set(['src/b', 'src/c'])], ['src/b', new Set(['src/a'])], ['src/c', new Set(['src/d'])]]);
    expect(mutualPairs(edges)).toEqual(['src/a <-> src/b']);
  });

  it('when the repository is read, then no folder imports one that imports it back', () => {
    expect(mutualPairs(folderEdges())).toEqual(STILL_MUTUAL);
  });

  it('when a feature imports HTTP helpers, then they come from src/http, never from src/api', () => {
    const edges = folderEdges();
    const intoApi = [...edges].filter(([from, targets]) => targets.has('src/api') && from !== 'src/runtime').map(([from]) => from);
    expect(intoApi).toEqual([]);
  });
});
