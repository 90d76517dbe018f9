// Lint rules that guard architecture, not taste:
// - every promise is awaited or explicitly voided (no lost errors, no lost orders);
// - workflows/ and the pure engine stay free of Node built-ins and I/O libraries, because
//   workflow code must replay deterministically and the engine must run anywhere.
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`]);
const ioLibraries = [
  'mongoose', 'mongodb', 'express', 'socket.io', 'socket.io-client', 'viem', 'pino', 'pino-http',
  'jose', 'secp256k1', 'ajv', '@temporalio/client', '@temporalio/worker', '@temporalio/activity',
  '@temporalio/testing',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'build/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    files: ['workflows/**/*.ts', 'src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeBuiltins, ...ioLibraries].map((name) => ({
          name, message: 'workflows/ and src/engine/ are deterministic and I/O-free: move this to activities/ or src/.',
        })),
        patterns: [{ group: ['mongoose/*', 'mongodb/*', 'viem/*', '@temporalio/worker/*', '@temporalio/client/*'], message: 'I/O library subpath is not allowed here.' }],
      }],
      'no-restricted-globals': ['error',
        { name: 'setTimeout', message: 'Use workflow sleep() / pass time in.' },
        { name: 'setInterval', message: 'Use workflow timers / pass time in.' },
        { name: 'process', message: 'No process access in deterministic code.' },
        { name: 'require', message: 'No dynamic require in deterministic code.' },
      ],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['@temporalio/*', '../*'], message: 'The engine imports nothing outside src/engine/.' }],
        paths: [...nodeBuiltins, ...ioLibraries].map((name) => ({ name, message: 'The engine is pure.' })),
      }],
    },
  },
);
