import { UserEventOrder } from '../../src/gateway/user-event-order';

const order = (status: string, remaining_size?: string, order_hash = '0xa') => ({ type: 'order', order: { order_hash, status, size: '3', ...(remaining_size ? { remaining_size } : {}) } });
const fill = (settlement_status: string, trade_id = 't1') => ({ type: 'fill', fill: { trade_id, role: 'maker', settlement_status } });

describe('UserEventOrder', () => {
  it('when an order event arrives after one of a later state of the same order, then it is dropped; forward and equal states pass', () => {
    const seen = new UserEventOrder();
    expect(seen.admit(order('OPEN', '3'))).toBe(true);
    expect(seen.admit(order('PARTIALLY_FILLED', '1'))).toBe(true);
    expect(seen.admit(order('PARTIALLY_FILLED', '2'))).toBe(false); // less matched than already shown
    expect(seen.admit(order('OPEN', '3'))).toBe(false);
    expect(seen.admit(order('PARTIALLY_FILLED', '1'))).toBe(true); // a repeat
    expect(seen.admit(order('MATCHED', '0'))).toBe(true);
    expect(seen.admit(order('FILLED', '0'))).toBe(true);
    expect(seen.admit(order('MATCHED', '0'))).toBe(false); // the backed-up lane's MATCHED after FILLED
    // Another order is its own story.
    expect(seen.admit(order('OPEN', '3', '0xb'))).toBe(true);
  });

  it('when a fill event arrives after the fill was final, then only a final one passes', () => {
    const seen = new UserEventOrder();
    expect(['PENDING', 'RETRYING', 'MINED', 'RETRYING', 'MINED'].map((s) => seen.admit(fill(s)))).toEqual([true, true, true, true, true]);
    expect(seen.admit(fill('CONFIRMED'))).toBe(true);
    expect(seen.admit(fill('MINED'))).toBe(false);
    expect(seen.admit(fill('CONFIRMED'))).toBe(true);
    expect(seen.admit(fill('PENDING', 't2'))).toBe(true);
  });

  it('when more orders than it remembers have been seen, then the oldest are forgotten (their late events pass) and the newest are kept', () => {
    const seen = new UserEventOrder(2);
    for (const hash of ['0x1', '0x2', '0x3']) seen.admit(order('FILLED', '0', hash));
    expect(seen.admit(order('OPEN', '3', '0x1'))).toBe(true);
    expect(seen.admit(order('OPEN', '3', '0x3'))).toBe(false);
  });
});
