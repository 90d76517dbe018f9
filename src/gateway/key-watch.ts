import type { Logger } from '../logging/logger';
import type { ConnectionKey } from './ws-auth';

/**
 * Ends the connections whose API key ended: revoked, deleted, or its secret regenerated since the
 * connection's token was issued. A REST request reads its key every time (a revoke is effective on
 * the next request, docs/auth.md), but a socket authenticates once, at its handshake: without this
 * a leaked key's socket went on receiving the wallet's orders and fills after the owner revoked the
 * key, for as long as it stayed open.
 *
 * Each gateway process checks the keys of its own connections, in one query for all of them, every
 * `intervalMs`. A key's secret is compared by value (`secret_issued_at` as the token recorded it),
 * never against this machine's clock. Connections opened with a JWT have no key and are not checked.
 */
export type KeyStateReader = (keyIds: string[]) => Promise<{ key_id: string; revoked: boolean; secret_issued_at: Date }[]>;

export interface KeyBoundConnection {
  key: ConnectionKey;
  /** Closes the connection, saying why. */
  end(): void;
}

export interface KeyWatch {
  /** One check; resolves with the number of connections ended. */
  checkOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startKeyWatch(connections: () => KeyBoundConnection[], read: KeyStateReader, intervalMs: number, logger: Logger): KeyWatch {
  let running: Promise<unknown> = Promise.resolve();

  async function checkOnce(): Promise<number> {
    const open = connections();
    if (open.length === 0) return 0;
    const states = new Map((await read([...new Set(open.map((c) => c.key.id))])).map((s) => [s.key_id, s]));
    let ended = 0;
    for (const c of open) {
      const state = states.get(c.key.id);
      if (state && !state.revoked && state.secret_issued_at.getTime() === c.key.secretIssuedAt.getTime()) continue;
      c.end();
      ended += 1;
    }
    if (ended > 0) logger.info({ ended }, 'closed realtime connections whose API key was revoked or regenerated');
    return ended;
  }

  const timer = setInterval(() => {
    running = running.then(checkOnce).catch((error: unknown) => {
      logger.warn({ err: error }, 'API key check of realtime connections failed; trying again at the next tick');
    });
  }, intervalMs);
  timer.unref();

  return {
    checkOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
