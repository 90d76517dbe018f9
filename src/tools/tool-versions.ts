import { FERRETDB_GENERATED_FILES, FERRETDB_PATCHES } from './ferretdb-patches';

/**
 * The Go-built servers the project runs on its embedded defaults. Versions are pinned: the cache
 * folder is keyed by version, so bumping one here rebuilds it once and keeps the old one intact.
 */
export interface GoTool {
  name: string;
  module: string;
  version: string;
  /** Package path inside the module that builds the binary. */
  pkg: string;
  /** Files the module's own build tooling would generate before `go build` (path -> content). */
  generatedFiles?: Record<string, string>;
  /** Exact-text source edits applied before building; each must match exactly once. */
  patches?: SourcePatch[];
  /** Names the patched build in the cache folder, so a patch change rebuilds once. */
  buildTag?: string;
}

export interface SourcePatch {
  file: string;
  find: string;
  replace: string;
  why: string;
}

export const TEMPORAL_CLI: GoTool = {
  name: 'temporal',
  module: 'github.com/temporalio/cli',
  version: 'v1.5.1',
  pkg: './cmd/temporal',
};

export const FERRETDB: GoTool = {
  name: 'ferretdb',
  module: 'github.com/FerretDB/FerretDB',
  version: 'v1.24.2',
  pkg: './cmd/ferretdb',
  // FerretDB embeds its version from a file its Taskfile writes from `git describe`; the module
  // zip lacks it and the binary panics at start without it.
  generatedFiles: { 'build/version/version.txt': 'v1.24.2\n', ...FERRETDB_GENERATED_FILES },
  // Speed fixes for the SQLite backend (its queries, and its writers' wait for the write lock);
  // which documents match is unchanged.
  patches: FERRETDB_PATCHES,
  buildTag: 'patched8',
};
