import { AppError } from '../errors';
import type { ApiKeyModel, ApiKeyPermission, ApiKeyRecord } from '../db/models';
import { digestsEqual, hashSecret, newKeyId, newSecret } from './secrets';

export interface ApiKeyMetadata {
  key_id: string;
  permissions: ApiKeyPermission[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface IssuedApiKey {
  key_id: string;
  secret: string;
}

export interface ApiKeyIdentity {
  wallet: string;
  keyId: string;
  permissions: ApiKeyPermission[];
  /** When the key's current secret was issued: a regenerate changes it. */
  secretIssuedAt: Date;
}

/** What the realtime gateway checks of the keys its connections were opened with. */
export interface ApiKeyState {
  key_id: string;
  revoked: boolean;
  secret_issued_at: Date;
}

export interface ApiKeyServiceDeps {
  model: ApiKeyModel;
  pepper: string;
  now?: () => Date;
}

const KEY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Hash compared when a key id is unknown, so that unknown and known ids take the same time. */
const DUMMY_HASH = '0'.repeat(64);

export function presentApiKey(record: ApiKeyRecord): ApiKeyMetadata {
  return {
    key_id: record.key_id,
    permissions: record.permissions,
    created_at: record.created_at.toISOString(),
    last_used_at: record.last_used_at ? record.last_used_at.toISOString() : null,
    revoked_at: record.revoked_at ? record.revoked_at.toISOString() : null,
  };
}

function normalizePermissions(permissions: ApiKeyPermission[] | undefined): ApiKeyPermission[] {
  const set = new Set(permissions ?? ['read']);
  return (['read', 'trade'] as const).filter((p) => set.has(p));
}

/** API-key lifecycle: every operation is scoped to the owner wallet; another wallet's key is NOT_FOUND. */
export function createApiKeyService(deps: ApiKeyServiceDeps) {
  const now = () => deps.now?.() ?? new Date();
  const hash = (secret: string) => hashSecret(deps.pepper, secret);

  async function create(wallet: string, permissions?: ApiKeyPermission[]): Promise<IssuedApiKey> {
    const secret = newSecret();
    const at = now();
    const record: ApiKeyRecord = {
      key_id: newKeyId(),
      wallet,
      secret_hash: hash(secret),
      permissions: normalizePermissions(permissions),
      created_at: at,
      last_used_at: null,
      revoked_at: null,
      secret_issued_at: at,
    };
    await deps.model.create(record);
    return { key_id: record.key_id, secret };
  }

  async function list(wallet: string): Promise<{ data: ApiKeyMetadata[] }> {
    const rows = await deps.model.find({ wallet, revoked_at: null }).sort({ created_at: -1, key_id: -1 }).lean<ApiKeyRecord[]>().exec();
    return { data: rows.map(presentApiKey) };
  }

  /** Soft revoke, effective at once (every request reads the key). Revoking again returns the same metadata. */
  async function revoke(wallet: string, keyId: string): Promise<ApiKeyMetadata> {
    await deps.model.updateOne({ key_id: keyId, wallet, revoked_at: null }, { $set: { revoked_at: now() } }).exec();
    const record = await deps.model.findOne({ key_id: keyId, wallet }).lean<ApiKeyRecord>().exec();
    if (!record) throw new AppError('NOT_FOUND', 'API key not found');
    return presentApiKey(record);
  }

  /** New secret for the same key id; the old secret fails from the next request on. Revoked keys stay dead. */
  async function regenerate(wallet: string, keyId: string): Promise<IssuedApiKey> {
    const secret = newSecret();
    const updated = await deps.model
      .findOneAndUpdate({ key_id: keyId, wallet, revoked_at: null }, { $set: { secret_hash: hash(secret), secret_issued_at: now() } })
      .lean<ApiKeyRecord>()
      .exec();
    if (!updated) throw new AppError('NOT_FOUND', 'API key not found');
    return { key_id: keyId, secret };
  }

  /**
   * Checks an `fs-api-key` / `fs-api-secret` pair. Unknown key or wrong secret: AUTH_INVALID;
   * a revoked key is reported as AUTH_REVOKED only to a caller that holds its secret.
   */
  async function authenticate(keyId: string, secret: string): Promise<ApiKeyIdentity> {
    const record = KEY_ID.test(keyId) ? await deps.model.findOne({ key_id: keyId }).lean<ApiKeyRecord>().exec() : null;
    const matches = digestsEqual(hash(secret), record?.secret_hash ?? DUMMY_HASH);
    if (!record || !matches) throw new AppError('AUTH_INVALID', 'Unknown API key or wrong secret');
    if (record.revoked_at) throw new AppError('AUTH_REVOKED');
    return { wallet: record.wallet, keyId: record.key_id, permissions: record.permissions, secretIssuedAt: record.secret_issued_at };
  }

  /** The states of the given keys (a deleted key is simply absent). */
  async function states(keyIds: string[]): Promise<ApiKeyState[]> {
    if (keyIds.length === 0) return [];
    const rows = await deps.model.find({ key_id: { $in: keyIds } }, { key_id: 1, revoked_at: 1, secret_issued_at: 1 }).lean<ApiKeyRecord[]>().exec();
    return rows.map((r) => ({ key_id: r.key_id, revoked: r.revoked_at !== null, secret_issued_at: r.secret_issued_at }));
  }

  return { create, list, revoke, regenerate, authenticate, states };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
