import { balanceMismatches, judgeOrders, settledDelta, tokenKey, type FillRecord, type FinalRecord, type SentOrder } from '../../bench/soak/verdict';

const E18 = 10n ** 18n;
const M = '0xaa';

const sent = (hash: string, intent: SentOrder['intent'], side: SentOrder['side'], extra: Partial<SentOrder> = {}): SentOrder => ({
  hash, wallet: side === 'BUY' ? '0xb' : '0xs', condition_id: M, side, intent, answer: 'accepted', ...extra,
});
const rec = (hash: string, status: string, remaining = status === 'MATCHED' || status === 'FILLED' ? '0' : '1'): FinalRecord => ({ order_hash: hash, status, size: '1', remaining_size: remaining });
const fill = (hash: string, side: FillRecord['side'], price: string, extra: Partial<FillRecord> = {}): FillRecord => ({
  trade_id: `t-${hash}`, order_hash: hash, condition_id: M, side, outcome: 1, price, size: '1', fee: '0', settlement_status: 'CONFIRMED', ...extra,
});

/** A clean soak: a matched pair, a cancelled and an expired far order. */
function clean(): { orders: SentOrder[]; records: FinalRecord[]; fills: FillRecord[] } {
  return {
    orders: [sent('b1', 'cross', 'BUY'), sent('s1', 'cross', 'SELL'), sent('c1', 'cancel', 'BUY', { cancel: 'cancelled' }), sent('e1', 'expire', 'SELL')],
    records: [rec('b1', 'FILLED'), rec('s1', 'FILLED'), rec('c1', 'CANCELLED'), rec('e1', 'EXPIRED')],
    fills: [fill('b1', 'BUY', '0.45'), fill('s1', 'SELL', '0.45')],
  };
}

describe('the soak verdict on every order', () => {
  it('finds nothing lost when every order ended as what was done to it says', () => {
    const { orders, records, fills } = clean();
    const verdict = judgeOrders(orders, records, fills);
    expect(verdict.lost_orders).toBe(0);
    expect(verdict.statuses).toEqual({ cross: { FILLED: 2 }, cancel: { CANCELLED: 1 }, expire: { EXPIRED: 1 } });
  });

  it.each([
    ['an accepted order without a record', (s: ReturnType<typeof clean>) => { s.records = s.records.filter((r) => r.order_hash !== 'b1'); }, 'missing'],
    ['an order recorded twice', (s: ReturnType<typeof clean>) => { s.records.push(rec('s1', 'FILLED')); }, 'duplicated'],
    ['a fill listed twice', (s: ReturnType<typeof clean>) => { s.fills.push(fill('s1', 'SELL', '0.45')); }, 'duplicated'],
    ['a rejected order that was stored', (s: ReturnType<typeof clean>) => { s.orders[2].answer = 'ORDER_EXPIRED'; }, 'stored_after_rejection'],
    ['a cancel answered cancelled, the order still open', (s: ReturnType<typeof clean>) => { s.records[2] = rec('c1', 'OPEN'); }, 'wrong_state'],
    ['a GTD order still open after its expiration', (s: ReturnType<typeof clean>) => { s.records[3] = rec('e1', 'OPEN'); }, 'wrong_state'],
    ['a crossing order cancelled', (s: ReturnType<typeof clean>) => { s.records[0] = rec('b1', 'CANCELLED'); s.fills.shift(); }, 'wrong_state'],
    ['a matched order without its fill', (s: ReturnType<typeof clean>) => { s.fills.shift(); }, 'fills_disagree'],
  ])('counts %s as lost', (_name, spoil, reason) => {
    const s = clean();
    spoil(s);
    const verdict = judgeOrders(s.orders, s.records, s.fills);
    expect(verdict.lost_orders).toBe(1);
    expect(verdict.lost_by_reason).toEqual({ [reason]: 1 });
  });

  it('lets crossing orders of the surplus side rest, and no more', () => {
    const orders = [sent('b1', 'cross', 'BUY'), sent('b2', 'cross', 'BUY'), sent('s1', 'cross', 'SELL')];
    const records = [rec('b1', 'OPEN'), rec('b2', 'OPEN'), rec('s1', 'FILLED')];
    // s1 filled, so one of the buys must have met it.
    expect(judgeOrders(orders, records, [fill('s1', 'SELL', '0.45')]).lost_by_reason).toEqual({ unmatched: 1 });
    // s1 rejected: both buys rest for want of a seller.
    orders[2].answer = 'INSUFFICIENT_BALANCE';
    expect(judgeOrders(orders, records.slice(0, 2), []).lost_orders).toBe(0);
  });

  it('never lets a buy and a sell of the same market both rest', () => {
    const orders = [sent('b1', 'cross', 'BUY'), sent('s1', 'cross', 'SELL'), sent('b2', 'cross', 'BUY'), sent('b3', 'cross', 'BUY')];
    const records = [rec('b1', 'OPEN'), rec('s1', 'OPEN'), rec('b2', 'OPEN'), rec('b3', 'OPEN')];
    expect(judgeOrders(orders, records, []).lost_by_reason).toEqual({ unmatched: 4 });
  });

  it('counts records nobody sent apart from the sent orders', () => {
    const { orders, records, fills } = clean();
    expect(judgeOrders(orders, [...records, rec('x9', 'OPEN')], fills)).toMatchObject({ lost_orders: 0, unexpected_records: 1 });
  });
});

describe('chain balances against settled fills', () => {
  const before = { collateral: 100n * E18, tokens: { [tokenKey(M, 1)]: 10n * E18 } };

  it('moves price x size of collateral and the size in tokens per confirmed fill', () => {
    const delta = settledDelta([fill('b1', 'BUY', '0.45'), fill('s1', 'SELL', '0.55'), fill('b2', 'BUY', '0.5', { settlement_status: 'FAILED' })]);
    expect(delta).toEqual({ collateral: -45n * E18 / 100n + 55n * E18 / 100n, tokens: { [tokenKey(M, 1)]: 0n } });
  });

  it('names each balance that differs from what the fills say', () => {
    const delta = settledDelta([fill('b1', 'BUY', '0.45')]);
    const right = { collateral: before.collateral - 45n * E18 / 100n, tokens: { [tokenKey(M, 1)]: 11n * E18 } };
    expect(balanceMismatches('0xb', before, delta, right)).toEqual([]);
    expect(balanceMismatches('0xb', before, delta, { ...right, tokens: { [tokenKey(M, 1)]: 10n * E18 } })).toHaveLength(1);
    expect(balanceMismatches('0xb', before, delta, { ...right, collateral: right.collateral + 1n })).toHaveLength(1);
  });
});
