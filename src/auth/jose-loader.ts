import type * as Jose from 'jose';

/**
 * jose 6 is ESM-only. Node >= 20.19 loads it through require(), which is what `import()` compiles
 * to here; loading it on first use keeps processes that never verify a JWT from paying for it.
 */
let loading: Promise<typeof Jose> | undefined;

export function loadJose(): Promise<typeof Jose> {
  loading ??= import('jose');
  return loading;
}
