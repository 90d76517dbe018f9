/**
 * A wallet's cancel (an update: it answers per hash). Resting orders of the wallet leave the book;
 * one stored but not handed over yet ends here, and its placement skips it.
 */
import type { CancelOutcome } from '../../src/ports/market-matcher';
import type { EngineEvent } from '../../src/engine';
import type { DirectEnd } from '../../src/matching/payloads';
import type { CancelOrders } from '../definitions';
import { db } from './activities';
import { clockOf, secondsOf } from './clock';
import type { LoadedRun } from './run-state';
import { write } from './write-step';

export async function cancel(run: LoadedRun, request: CancelOrders): Promise<CancelOutcome> {
  const { book, key } = run;
  const wallet = request.wallet.toLowerCase();
  const at = clockOf(run, request.requested_at);
  const now = secondsOf(at);
  const outcome: CancelOutcome = { cancelled: [], not_cancelled: [] };
  const notFound = (order_hash: string) => outcome.not_cancelled.push({ order_hash, error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } });
  const events: EngineEvent[] = [];
  const elsewhere: string[] = [];
  const hashes = [...new Set(request.hashes.map((h) => String(h).toLowerCase()))];
  for (const hash of hashes) {
    const resting = book.order(hash);
    if (!resting) {
      elsewhere.push(hash);
    } else if (resting.maker.toLowerCase() !== wallet) {
      notFound(hash);
    } else {
      const caused = book.cancel(hash, now, 'USER');
      for (const e of caused) events.push(e);
      if (caused.some((e) => e.type === 'ORDER_EXPIRED')) {
        outcome.not_cancelled.push({ order_hash: hash, error: { code: 'ORDER_NOT_OPEN', message: 'Order has expired' } });
      } else {
        outcome.cancelled.push(hash);
      }
    }
  }
  const direct: DirectEnd[] = [];
  if (elsewhere.length > 0) {
    const found = await db.lookupOrders({ hashes: elsewhere });
    const byHash: Record<string, (typeof found)[number]> = {};
    for (const f of found) byHash[f.order_hash] = f;
    for (const hash of elsewhere) {
      const o = byHash[hash];
      if (!o || o.wallet.toLowerCase() !== wallet || o.market_key !== key) notFound(hash);
      else if (o.status === 'MATCHED' || o.status === 'FILLED') {
        outcome.not_cancelled.push({ order_hash: hash, error: { code: 'ORDER_ALREADY_FILLED', message: 'Order is already filled' } });
      } else if (o.status === 'OPEN' && o.handoff === 'PENDING') {
        // Persisted but not handed over yet: end it here; its placement will skip it.
        direct.push({ hash, status: 'CANCELLED', reason: request.reason ?? 'USER_CANCEL' });
        outcome.cancelled.push(hash);
      } else {
        outcome.not_cancelled.push({ order_hash: hash, error: { code: 'ORDER_NOT_OPEN', message: `Order is ${o.status}` } });
      }
    }
  }
  await write(run, events, new Set(), direct, { at, reason: request.reason });
  return outcome;
}
