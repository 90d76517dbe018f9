/** Tests run against real servers started once per run (test/helpers/global-setup.ts). */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Type-checking is `npm run typecheck`; jest only transpiles, which keeps the run fast.
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
    // jose 6 ships only ES modules, which jest's CommonJS sandbox cannot load: transpile it too.
    '^.+/node_modules/jose/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, isolatedModules: true, module: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 120_000,
  // A file that fails inside its set-up can leave a child process or socket open, and jest then
  // waits for it forever after printing the summary; CI must end with that summary's exit code.
  forceExit: true,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
};
