/**
 * Folds the engine events of one workflow step into the plain-JSON write the step's activity
 * applies. Pure and deterministic: it runs inside the market workflow.
 */
import type { EngineEvent, FillLeg } from '../engine';
import type { BookDeltaWrite, OrderWrite, TradeLegWrite, TradeWrite } from './payloads';

export interface FoldedEvents {
  orders: OrderWrite[];
  trades: TradeWrite[];
  book: BookDeltaWrite[];
  /** YES price of the last trade of the step, or null when nothing traded. */
  lastPrice: number | null;
}

/**
 * `placed`: hashes this step placed (they get book_added_at and handoff ACCEPTED);
 * `arrivalOf`: the engine arrival number of an order still resting, else undefined.
 */
export function foldEvents(events: EngineEvent[], placed: ReadonlySet<string>, arrivalOf: (hash: string) => number | undefined): FoldedEvents {
  const orders: OrderWrite[] = [];
  const index: Record<string, number> = {};
  const trades: TradeWrite[] = [];
  const book: BookDeltaWrite[] = [];
  let lastPrice: number | null = null;
  const setOrder = (hash: string, seq: number, status: OrderWrite['status'], remaining: bigint, filled: bigint, reason: string | null) => {
    const write: OrderWrite = {
      hash, seq, status, remaining: remaining.toString(), filled: filled.toString(),
      placed: placed.has(hash), arrival: null, reason,
    };
    if (index[hash] === undefined) {
      index[hash] = orders.length;
      orders.push(write);
    } else {
      orders[index[hash]] = write;
    }
  };
  for (const e of events) {
    switch (e.type) {
      case 'ORDER_RESTED':
      case 'ORDER_UPDATED':
        setOrder(e.orderHash, e.seq, e.status, e.remaining, e.filled, null);
        break;
      case 'ORDER_CANCELLED':
        setOrder(e.orderHash, e.seq, 'CANCELLED', e.remaining, e.filled, e.reason);
        break;
      case 'ORDER_EXPIRED':
        setOrder(e.orderHash, e.seq, 'EXPIRED', e.remaining, e.filled, 'EXPIRED');
        break;
      case 'TRADE':
        lastPrice = e.yesPrice;
        trades.push({ tradeId: e.tradeId, seq: e.seq, kind: e.kind, yesPrice: e.yesPrice, size: e.size.toString(), maker: legWrite(e.maker), taker: legWrite(e.taker) });
        break;
      case 'BOOK_LEVEL_CHANGED': {
        const last = book[book.length - 1];
        const change = { side: e.side, price: e.price, remaining: e.remaining.toString() };
        if (last && last.bookSeq === e.bookSeq) last.changes.push(change);
        else book.push({ bookSeq: e.bookSeq, changes: [change] });
        break;
      }
    }
  }
  for (const o of orders) {
    if (o.status === 'OPEN' || o.status === 'PARTIALLY_FILLED') o.arrival = arrivalOf(o.hash) ?? null;
  }
  return { orders, trades, book, lastPrice };
}

function legWrite(leg: FillLeg): TradeLegWrite {
  return {
    orderHash: leg.orderHash, maker: leg.maker, side: leg.side, outcome: leg.outcome, price: leg.price,
    size: leg.size.toString(), collateral: leg.collateral.toString(), fee: leg.fee.toString(),
  };
}
