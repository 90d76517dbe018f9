import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors';
import type { IdempotencyKeyModel } from './models/idempotency-key.model';

/** A key is remembered this long after its first use; then the same key places again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A PENDING claim older than this is taken to belong to a crashed request and may be taken over. */
export const STALE_CLAIM_MS = 60_000;
/** How long a concurrent duplicate waits for the first request's stored result. */
export const WAIT_FOR_WINNER_MS = 15_000;
const POLL_MS = 25;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** sha256 of the JSON body with object keys sorted, so key order never makes two bodies differ. */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(stableJson(body)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function checkIdempotencyKey(raw: string): string {
  if (!KEY_PATTERN.test(raw)) throw new AppError('VALIDATION_ERROR', 'fs-idempotency-key must be 1..255 printable ASCII characters');
  return raw;
}

export interface IdempotentResult<T> {
  response: T;
  replayed: boolean;
}

/**
 * Runs `work` at most once per (wallet, key) within IDEMPOTENCY_TTL_MS (spec: Idempotency).
 * The key is claimed with a unique insert before any work; a concurrent request with the same key
 * waits for the winner's stored response instead of placing again. A failed `work` frees the key.
 */
export class IdempotencyStore {
  constructor(
    private readonly keys: IdempotencyKeyModel,
    private readonly clock: () => Date = () => new Date(),
    private readonly waitForWinnerMs = WAIT_FOR_WINNER_MS,
  ) {}

  async run<T extends Record<string, unknown>>(wallet: string, key: string, bodyHash: string, work: () => Promise<T>): Promise<IdempotentResult<T>> {
    const id = `${wallet.toLowerCase()}:${key}`;
    const deadline = Date.now() + this.waitForWinnerMs;
    for (;;) {
      const claimId = randomUUID();
      const claimed = await this.claim(id, wallet, key, bodyHash, claimId);
      if (claimed) return { response: await this.perform(id, claimId, work), replayed: false };

      const existing = await this.keys.findById(id).lean();
      if (!existing) continue; // freed or expired in between: claim again
      const now = this.clock().getTime();
      if (now - new Date(existing.created_at).getTime() >= IDEMPOTENCY_TTL_MS) {
        await this.keys.deleteOne({ _id: id, claim_id: existing.claim_id });
        continue;
      }
      if (existing.body_hash !== bodyHash) throw new AppError('IDEMPOTENCY_CONFLICT', 'fs-idempotency-key was already used with a different body');
      if (existing.state === 'DONE' && existing.response) return { response: existing.response as T, replayed: true };
      if (now - new Date(existing.updated_at).getTime() >= STALE_CLAIM_MS) {
        // The winner crashed mid-way: free the key and race for it again with a unique insert.
        await this.keys.deleteOne({ _id: id, claim_id: existing.claim_id, state: 'PENDING' });
        continue;
      }
      if (Date.now() > deadline) {
        throw new AppError('IDEMPOTENCY_CONFLICT', 'A request with this fs-idempotency-key is still in progress; retry later');
      }
      await sleep(POLL_MS);
    }
  }

  /** Deletes keys past their lifetime; run periodically (there is no TTL index on FerretDB). */
  async deleteExpired(): Promise<number> {
    const cutoff = new Date(this.clock().getTime() - IDEMPOTENCY_TTL_MS);
    const result = await this.keys.deleteMany({ created_at: { $lt: cutoff } });
    return result.deletedCount ?? 0;
  }

  private async claim(id: string, wallet: string, key: string, bodyHash: string, claimId: string): Promise<boolean> {
    const now = this.clock();
    try {
      await this.keys.create({
        _id: id,
        wallet: wallet.toLowerCase(),
        key,
        body_hash: bodyHash,
        state: 'PENDING',
        claim_id: claimId,
        response: null,
        created_at: now,
        updated_at: now,
      });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  private async perform<T extends Record<string, unknown>>(id: string, claimId: string, work: () => Promise<T>): Promise<T> {
    let response: T;
    try {
      response = await work();
    } catch (error) {
      await this.keys.deleteOne({ _id: id, claim_id: claimId }).catch(() => undefined);
      throw error;
    }
    await this.keys.updateOne({ _id: id, claim_id: claimId }, { $set: { state: 'DONE', response, updated_at: this.clock() } });
    return response;
  }
}
