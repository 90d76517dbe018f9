import { Engine, signedAmounts, type EngineOrder } from '../../src/engine';
import { foldEvents } from '../../src/matching/batch-write';

const S = 10n ** 18n;
function order(hash: string, maker: string, side: 'BUY' | 'SELL', price: number, shares: bigint, orderType: EngineOrder['orderType'] = 'LIMIT'): EngineOrder {
  const size = shares * S;
  return { hash, maker, taker: '0x0000000000000000000000000000000000000000', side, outcome: 1, orderType, price, size, ...signedAmounts(side, size, price), expiration: 0, feeRateBps: 0 };
}

describe('foldEvents', () => {
  test('when a taker sweeps two makers, then each order keeps only its last state with the seq that produced it', () => {
    const engine = new Engine({ marketId: '56-0xabc' });
    const rest = [...engine.place(order('0xa', '0x1', 'SELL', 60, 1n), 1), ...engine.place(order('0xb', '0x2', 'SELL', 61, 2n), 1)];
    const restFold = foldEvents(rest, new Set(['0xa', '0xb']), (h) => engine.order(h)?.arrival);
    expect(restFold.orders.map((o) => [o.hash, o.status, o.arrival, o.placed])).toEqual([['0xa', 'OPEN', 1, true], ['0xb', 'OPEN', 2, true]]);
    expect(restFold.book.map((b) => b.bookSeq)).toEqual([1, 2]);

    const events = engine.place(order('0xc', '0x3', 'BUY', 61, 2n), 2);
    const folded = foldEvents(events, new Set(['0xc']), (h) => engine.order(h)?.arrival);
    const byHash = Object.fromEntries(folded.orders.map((o) => [o.hash, o]));
    expect(byHash['0xa']).toMatchObject({ status: 'MATCHED', remaining: '0', placed: false, arrival: null });
    expect(byHash['0xb']).toMatchObject({ status: 'PARTIALLY_FILLED', remaining: S.toString(), arrival: 2 });
    expect(byHash['0xc']).toMatchObject({ status: 'MATCHED', filled: (2n * S).toString(), placed: true });
    expect(byHash['0xc'].seq).toBe(Math.max(...events.filter((e) => 'orderHash' in e && e.orderHash === '0xc').map((e) => e.seq)));
    expect(folded.trades.map((t) => [t.tradeId, t.yesPrice, t.size])).toEqual([['56-0xabc:1', 60, S.toString()], ['56-0xabc:2', 61, S.toString()]]);
    // One engine call = one book seq, carrying every level it changed.
    expect(folded.book).toEqual([{ bookSeq: 3, changes: [{ side: 'ask', price: 60, remaining: '0' }, { side: 'ask', price: 61, remaining: S.toString() }] }]);
    expect(folded.lastPrice).toBe(61);
    expect(JSON.parse(JSON.stringify(folded))).toEqual(folded); // plain JSON: no bigint, no Map
  });
});
