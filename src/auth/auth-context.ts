import type { ApiKeyPermission } from '../db/models';

/** Who a request acts for, set by requireL1 / requireL2. */
export interface AuthContext {
  /** Lower-case wallet address. */
  wallet: string;
  via: 'jwt' | 'api_key';
  keyId?: string;
  /** With `keyId`: when that key's current secret was issued (ws tokens carry it, see ws-tokens.ts). */
  keySecretIssuedAt?: Date;
  /** With a JWT: when it expires (a ws token issued with it ends its socket then, see ws-tokens.ts). */
  jwtExpiresAt?: Date;
  /** A JWT user has every permission; an API key only its own. */
  permissions: ApiKeyPermission[];
}

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthContext;
  }
}

export const ALL_PERMISSIONS: ApiKeyPermission[] = ['read', 'trade'];
