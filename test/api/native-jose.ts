/**
 * Test-only: jose 6 is ESM-only, and jest's module registry on Node 20 cannot require() ES
 * modules (Node itself can, since 20.19, which is how production loads it). Test files that reach
 * jose do `jest.mock('jose', () => jest.requireActual('../api/native-jose').nativeJose())`, which
 * hands them the real jose loaded by Node's own require. Remove once jest.config transforms jose.
 */
export function nativeJose(): unknown {
  const outerProcess = (Buffer.constructor as FunctionConstructor)('return process')() as NodeJS.Process;
  const nodeModule = outerProcess.getBuiltinModule('node:module');
  return nodeModule.createRequire(__filename)('jose');
}
