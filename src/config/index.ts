export * from './env-spec';
export * from './load-config';
