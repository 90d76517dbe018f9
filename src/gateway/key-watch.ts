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
 * never against this machine's clock. A connection opened with a JWT has no key: it ends at the
 * first check after that JWT expires (`authExpiresAt`), as a REST request with it would be refused.
 */
export type KeyStateReader = (keyIds: string[]) => Promise<{ key_id: string; revoked: boolean; secret_issued_at: Date }[]>;

export interface KeyBoundConnection {
  key: ConnectionKey | null;
  /** When the JWT the connection was opened with expires. */
  authExpiresAt?: Date | null;
  /** Closes the connection, saying why: its key ended, or (`expired`) its JWT did. */
  end(expired?: boolean): void;
}

export interface KeyWatch {
  /** One check; resolves with the number of connections ended. */
  checkOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startKeyWatch(connections: () => KeyBoundConnection[], read: KeyStateReader | undefined, intervalMs: number, logger: Logger): KeyWatch {
  let running: Promise<unknown> = Promise.resolve();

  async function checkOnce(): Promise<number> {
    const now = Date.now();
    let ended = 0;
    const open: (KeyBoundConnection & { key: ConnectionKey })[] = [];
    for (const c of connections()) {
      if (c.authExpiresAt && c.authExpiresAt.getTime() <= now) {
        c.end(true);
        ended += 1;
      } else if (c.key && read) {
        open.push(c as KeyBoundConnection & { key: ConnectionKey });
      }
    }
    if (open.length === 0) return ended;
    const states = new Map((await read!([...new Set(open.map((c) => c.key.id))])).map((s) => [s.key_id, s]));
    for (const c of open) {
      const state = states.get(c.key.id);
      if (state && !state.revoked && state.secret_issued_at.getTime() === c.key.secretIssuedAt.getTime()) continue;
      c.end();
      ended += 1;
    }
    if (ended > 0) logger.info({ ended }, 'closed realtime connections whose API key ended or whose JWT expired');
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
