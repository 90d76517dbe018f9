export * from './auth-context';
export * from './auth.middleware';
export * from './api-keys';
export * from './api-key-usage';
export * from './jwt-verifier';
export * from './ws-tokens';
export * from './wallet';
export { authRoutes } from './auth.routes';
