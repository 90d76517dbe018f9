import type { ApiKeyModel } from '../db/models';
import type { Logger } from '../logging/logger';

/**
 * `last_used_at` without a write per request: uses are marked in memory and flushed every few
 * seconds in one bulk write (and once more on stop). A key's value only moves forward, so
 * several API processes flushing in any order agree.
 */
export interface ApiKeyUsageTracker {
  mark(keyId: string, at?: Date): void;
  flush(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createApiKeyUsageTracker(deps: {
  model: ApiKeyModel;
  logger?: Logger;
  flushIntervalMs?: number;
  now?: () => Date;
}): ApiKeyUsageTracker {
  let pending = new Map<string, Date>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const remember = (keyId: string, at: Date) => {
    const seen = pending.get(keyId);
    if (!seen || seen < at) pending.set(keyId, at);
  };

  const writeBatch = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await deps.model.bulkWrite(
        [...batch].map(([keyId, at]) => ({
          updateOne: {
            filter: { key_id: keyId, $or: [{ last_used_at: null }, { last_used_at: { $lt: at } }] },
            update: { $set: { last_used_at: at } },
          },
        })),
        { ordered: false },
      );
    } catch (error) {
      for (const [keyId, at] of batch) remember(keyId, at);
      deps.logger?.warn({ err: error, keys: batch.size }, 'api key last_used_at flush failed; will retry');
    }
  };

  const flush = () => {
    flushing = flushing.then(writeBatch);
    return flushing;
  };

  return {
    mark: (keyId, at) => remember(keyId, at ?? deps.now?.() ?? new Date()),
    flush,
    start() {
      if (timer) return;
      timer = setInterval(() => void flush(), deps.flushIntervalMs ?? 5_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}
