/**
 * The workflow code bundle, built once by `npm run build` (`scripts/bundle-workflows.ts`) instead of
 * by every worker at start: webpack took ~2 s of a restarting worker's ~5 s, and a market matches
 * nothing until a worker is back. The SDK recommends the same for
 * production (`bundleWorkflowCode`).
 *
 * A bundle must never run code other than what the worker's own files say: the build writes beside
 * it a manifest with the SHA-256 of every file webpack read, and the worker uses the bundle only if
 * each of those files is still there and unchanged (e.g. `tsc` was run again without the bundle
 * step). Otherwise it bundles at start, as before, and logs why.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

/** Where `npm run build` puts the bundle, relative to `dist/`; its manifest is `{file}.manifest.json`. */
export const WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';

interface BundleManifest {
  /** File read by webpack (relative to the manifest's folder) → its SHA-256. */
  inputs: Record<string, string>;
}

/** What the worker passes to `Worker.create`: the prebuilt bundle, or the path to bundle at start. */
export type WorkflowCode =
  | { prebuilt: true; workflowBundle: { codePath: string } }
  | { prebuilt: false; workflowsPath: string; reason: string };

const manifestPathOf = (codePath: string) => `${codePath}.manifest.json`;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Bundles `workflowsPath` into `codePath` and writes its manifest; returns the number of inputs. */
export async function writeWorkflowBundle(workflowsPath: string, codePath: string): Promise<number> {
  const files = new Set<string>();
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    logger: new DefaultLogger('WARN'),
    webpackConfigHook: (config) => ({
      ...config,
      plugins: [
        ...(config.plugins ?? []),
        {
          apply(compiler) {
            compiler.hooks.done.tap('workflow-bundle-manifest', (stats) => {
              for (const file of stats.compilation.fileDependencies) files.add(file);
            });
          },
        },
      ],
    }),
  });
  const base = dirname(codePath);
  const inputs: Record<string, string> = {};
  // Directories webpack looked into are listed too; the generated entry point exists only in memory.
  const read = [...files].filter((f) => isAbsolute(f) && existsSync(f) && statSync(f).isFile()).sort();
  for (const file of read) inputs[relative(base, file)] = sha256(file);
  if (Object.keys(inputs).length === 0) throw new Error('webpack reported no input files: the bundle could not be checked at start');
  writeFileSync(codePath, code);
  writeFileSync(manifestPathOf(codePath), `${JSON.stringify({ inputs } satisfies BundleManifest, null, 1)}\n`);
  return Object.keys(inputs).length;
}

/** The prebuilt bundle at `codePath` if its manifest still matches every input, else `workflowsPath` and why not. */
export function workflowCodeFor(workflowsPath: string, codePath: string): WorkflowCode {
  const atStart = (reason: string): WorkflowCode => ({ prebuilt: false, workflowsPath, reason });
  if (!existsSync(codePath) || !existsSync(manifestPathOf(codePath))) return atStart(`no prebuilt bundle at ${codePath} (npm run build makes it)`);
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPathOf(codePath), 'utf8')) as BundleManifest;
  } catch (error) {
    return atStart(`unreadable bundle manifest: ${(error as Error).message}`);
  }
  const base = dirname(codePath);
  const entry = resolve(workflowsPath);
  const entries = Object.keys(manifest.inputs ?? {});
  if (!entries.some((file) => resolve(base, file) === entry)) return atStart(`the prebuilt bundle was not built from ${workflowsPath}`);
  for (const file of entries) {
    const path = resolve(base, file);
    if (!existsSync(path)) return atStart(`${path}, an input of the prebuilt bundle, is gone`);
    if (sha256(path) !== manifest.inputs[file]) return atStart(`${path} changed since the bundle was built`);
  }
  return { prebuilt: true, workflowBundle: { codePath } };
}
