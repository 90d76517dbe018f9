import { MatchObserver, type UserEvent } from '../../bench/e2e/observer';

const OURS = '0xaa';
const DEMO = '0xdd';
const order = (hash: string, status: string, market = OURS): UserEvent => ({ type: 'order', order: { order_hash: hash, status, condition_id: market } });
const fill = (hash: string, settlement_status: string, market = OURS): UserEvent => ({ type: 'fill', fill: { order_hash: hash, trade_id: `t-${hash}`, settlement_status, condition_id: market } });

/** waitSettled with a deadline already passed: the number of matched orders not yet settled. */
const stillSettling = (observer: MatchObserver) => observer.waitSettled(0);

describe('MatchObserver: when is a matched order settled', () => {
  it('when an order partly fills and is then cancelled, then it settles once its fill is CONFIRMED, not before', async () => {
    const observer = new MatchObserver('http://unused', [], [OURS]);
    observer.take(order('0x1', 'PARTIALLY_FILLED'), 1);
    observer.take(fill('0x1', 'PENDING'), 2);
    observer.take(order('0x1', 'CANCELLED'), 3);
    expect(await stillSettling(observer)).toBe(1);
    observer.take(fill('0x1', 'CONFIRMED'), 4);
    expect(await stillSettling(observer)).toBe(0);
    expect(observer.matchedAt.get('0x1')).toBe(1);
  });

  it('when a fully matched order has not reached FILLED, then it is still settling; FILLED settles it', async () => {
    const observer = new MatchObserver('http://unused', [], [OURS]);
    observer.take(order('0x2', 'MATCHED'), 1);
    expect(await stillSettling(observer)).toBe(1);
    observer.take(order('0x2', 'FILLED'), 2);
    expect(await stillSettling(observer)).toBe(0);
    expect(observer.settledAt.get('0x2')).toBe(2);
  });

  it('when the same wallets trade another market (the demo bots), then those events are not counted', async () => {
    const observer = new MatchObserver('http://unused', [], [OURS]);
    observer.take(order('0x3', 'PARTIALLY_FILLED', DEMO), 1);
    observer.take(fill('0x3', 'PENDING', DEMO), 2);
    expect(observer.matchedAt.has('0x3')).toBe(false);
    expect(await stillSettling(observer)).toBe(0);
  });
});
