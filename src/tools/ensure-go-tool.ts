import { execFile } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GoTool, SourcePatch } from './tool-versions';

const run = promisify(execFile);

export function defaultToolsDir(): string {
  return process.env.TOOLS_DIR || join(homedir(), '.cache', 'predex-tools');
}

export function toolBinaryPath(tool: GoTool, toolsDir = defaultToolsDir()): string {
  const folder = tool.buildTag ? `${tool.name}-${tool.version}-${tool.buildTag}` : `${tool.name}-${tool.version}`;
  return join(toolsDir, folder, tool.name);
}

export class MissingGoError extends Error {
  constructor(tool: GoTool) {
    super(
      `Building ${tool.name} ${tool.version} needs Go 1.24 or newer, and 'go' is not on PATH.\n` +
        `Install Go (Debian: 'apt-get install golang-go', or https://go.dev/doc/install), then run 'npm start' again.\n` +
        `Or point the service at an existing server instead (TEMPORAL_ADDRESS / MONGODB_URI).`,
    );
    this.name = 'MissingGoError';
  }
}

async function hasGo(): Promise<boolean> {
  try {
    await run('go', ['version']);
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns the cached binary for `tool`, building it first when absent.
 *
 * We download the module from the Go module proxy and build inside the downloaded module rather
 * than `go install module@version`: `go install` also asks the proxy for the module's version list
 * (to check deprecations), and the proxy reachable here refuses that list for FerretDB. Building
 * inside the module uses its own go.mod/go.sum, so the result is the same pinned build.
 * The binary is written under a temporary name and renamed, so a crash never leaves half a file.
 */
export async function ensureGoTool(tool: GoTool, log: (line: string) => void = () => {}): Promise<string> {
  const target = toolBinaryPath(tool);
  if (existsSync(target)) return target;
  if (!(await hasGo())) throw new MissingGoError(tool);

  log(`building ${tool.name} ${tool.version} with Go (first run only; takes a few minutes)...`);
  const env = { ...process.env, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' };
  const { stdout } = await run('go', ['mod', 'download', '-json', `${tool.module}@${tool.version}`], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  const moduleDir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  if (!moduleDir) throw new Error(`go mod download gave no folder for ${tool.module}@${tool.version}`);

  mkdirSync(join(target, '..'), { recursive: true });
  const temporary = `${target}.partial-${process.pid}`;
  const edited = tool.generatedFiles !== undefined || (tool.patches?.length ?? 0) > 0;
  const sourceDir = edited ? writableCopy(moduleDir, tool.generatedFiles ?? {}, tool.patches ?? []) : moduleDir;
  try {
    await run('go', ['build', '-trimpath', '-o', temporary, tool.pkg], {
      cwd: sourceDir,
      env,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 30 * 60 * 1000,
    });
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
    if (sourceDir !== moduleDir) rmSync(sourceDir, { recursive: true, force: true });
  }
  log(`built ${target}`);
  return target;
}

/** The module cache is read-only; generated files and patches go into a private copy of the module. */
function writableCopy(moduleDir: string, files: Record<string, string>, patches: SourcePatch[]): string {
  const copy = mkdtempSync(join(tmpdir(), 'predex-go-build-'));
  cpSync(moduleDir, copy, { recursive: true });
  chmodSync(copy, 0o755);
  for (const [relative, content] of Object.entries(files)) {
    const path = join(copy, relative);
    chmodSync(join(path, '..'), 0o755);
    rmSync(path, { force: true });
    writeFileSync(path, content);
  }
  for (const patch of patches) applyPatch(copy, patch);
  return copy;
}

/** Applies one exact-text edit; refuses when the text is not there exactly once (wrong version). */
function applyPatch(root: string, patch: SourcePatch): void {
  const path = join(root, patch.file);
  const source = readFileSync(path, 'utf8');
  const count = source.split(patch.find).length - 1;
  if (count !== 1) throw new Error(`patch for ${patch.file} (${patch.why}) expects its text once, found ${count} times`);
  chmodSync(path, 0o644);
  writeFileSync(path, source.replace(patch.find, () => patch.replace));
}
