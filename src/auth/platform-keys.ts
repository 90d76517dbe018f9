import { AppError } from '../errors';
import type { PlatformKeyModel, PlatformKeyRecord } from '../db/models';
import { digestsEqual, hashSecret, newKeyId, newSecret } from './secrets';

export interface PlatformKeyMetadata {
  key_id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
}

export interface IssuedPlatformKey {
  key_id: string;
  secret: string;
  name: string;
  created_at: string;
}

export interface PlatformKeyServiceDeps {
  model: PlatformKeyModel;
  pepper: string;
  now?: () => Date;
}

const KEY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Compared when a key id is unknown, so that unknown and known ids take the same time. */
const DUMMY_HASH = '0'.repeat(64);

export function presentPlatformKey(record: PlatformKeyRecord): PlatformKeyMetadata {
  return {
    key_id: record.key_id,
    name: record.name,
    created_at: record.created_at.toISOString(),
    revoked_at: record.revoked_at ? record.revoked_at.toISOString() : null,
  };
}

/**
 * Platform keys, issued by operators to partner apps for the /trade API. Secrets are hashed with
 * the same pepper as trader API keys; a revoke is soft and applies from the next request.
 */
export function createPlatformKeyService(deps: PlatformKeyServiceDeps) {
  const now = () => deps.now?.() ?? new Date();
  const hash = (secret: string) => hashSecret(deps.pepper, secret);

  async function create(name: string): Promise<IssuedPlatformKey> {
    const secret = newSecret();
    const record: PlatformKeyRecord = { key_id: newKeyId(), name, secret_hash: hash(secret), created_at: now(), revoked_at: null };
    await deps.model.create(record);
    return { key_id: record.key_id, secret, name, created_at: record.created_at.toISOString() };
  }

  async function list(): Promise<{ data: PlatformKeyMetadata[] }> {
    const rows = await deps.model.find({}).sort({ created_at: -1, key_id: -1 }).lean<PlatformKeyRecord[]>().exec();
    return { data: rows.map(presentPlatformKey) };
  }

  /** Revoking again returns the same metadata (the first revoke time). */
  async function revoke(keyId: string): Promise<PlatformKeyMetadata> {
    await deps.model.updateOne({ key_id: keyId, revoked_at: null }, { $set: { revoked_at: now() } }).exec();
    const record = await deps.model.findOne({ key_id: keyId }).lean<PlatformKeyRecord>().exec();
    if (!record) throw new AppError('NOT_FOUND', 'Platform key not found');
    return presentPlatformKey(record);
  }

  /** Unknown key or wrong secret: AUTH_INVALID; revoked is told only to a caller holding the secret. */
  async function authenticate(keyId: string, secret: string): Promise<PlatformKeyMetadata> {
    const record = KEY_ID.test(keyId) ? await deps.model.findOne({ key_id: keyId }).lean<PlatformKeyRecord>().exec() : null;
    const matches = digestsEqual(hash(secret), record?.secret_hash ?? DUMMY_HASH);
    if (!record || !matches) throw new AppError('AUTH_INVALID', 'Unknown platform key or wrong secret');
    if (record.revoked_at) throw new AppError('AUTH_REVOKED', 'Platform key has been revoked');
    return presentPlatformKey(record);
  }

  return { create, list, revoke, authenticate };
}

export type PlatformKeyService = ReturnType<typeof createPlatformKeyService>;
