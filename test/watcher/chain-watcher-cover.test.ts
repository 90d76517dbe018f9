import { reservedByRemaining, voidedOrders, type OpenOrder, type WalletBacking } from '../../activities/chain-watcher-cover';

const E18 = 10n ** 18n;
let n = 0;
function order(o: Partial<OpenOrder> & { minute: number }): OpenOrder {
  n += 1;
  return {
    order_hash: `0x${n.toString(16).padStart(64, '0')}`, market_key: '56-0xm', side: 'BUY', token_id: '7', price_ticks: 50, fee_rate_bps: 0,
    remaining_units: (10n * E18).toString(), nonce: '0', created_at: new Date(Date.UTC(2026, 0, 1, 0, o.minute)), ...o,
  };
}
const funds = (collateral: bigint, tokens: Record<string, bigint> = {}): WalletBacking => ({ collateral, tokens, fundsRead: true });

describe('which open orders the chain voided', () => {
  test('when a BUY reserves its remaining price and the most fee, then that is what it needs', () => {
    expect(reservedByRemaining(order({ minute: 0, fee_rate_bps: 100 }))).toBe(5n * E18 + (10n * E18 * 50n * 100n) / 1_000_000n);
    expect(reservedByRemaining(order({ minute: 0, side: 'SELL', remaining_units: '3' }))).toBe(3n);
  });

  test('when the collateral covers every open BUY, then none is voided', () => {
    const orders = [order({ minute: 0 }), order({ minute: 1 })];
    expect(voidedOrders(orders, funds(10n * E18), new Set())).toEqual([]);
  });

  test('when the collateral covers only part, then the newest are cancelled until the rest is covered', () => {
    const [a, b, c] = [order({ minute: 0 }), order({ minute: 2 }), order({ minute: 1 })];
    // 15 shares' worth reserved (3 x 5): 7 covers only the oldest.
    const voided = voidedOrders([a, b, c], funds(7n * E18), new Set());
    expect(voided.map((v) => [v.order_hash, v.reason])).toEqual([[b.order_hash, 'BALANCE_CHANGED'], [c.order_hash, 'BALANCE_CHANGED']]);
  });

  test('when outcome tokens are short, then only SELLs of that token are voided, newest first', () => {
    const buy = order({ minute: 5 });
    const s1 = order({ minute: 0, side: 'SELL', remaining_units: '4' });
    const s2 = order({ minute: 1, side: 'SELL', remaining_units: '4' });
    const other = order({ minute: 2, side: 'SELL', token_id: '8', remaining_units: '4' });
    const voided = voidedOrders([buy, s1, s2, other], funds(10n * E18, { '7': 5n, '8': 4n }), new Set());
    expect(voided.map((v) => v.order_hash)).toEqual([s2.order_hash]);
  });

  test('when a SELL token was not read, then its order waits for the next check', () => {
    const sell = order({ minute: 0, side: 'SELL', token_id: '9', remaining_units: '4' });
    expect(voidedOrders([sell], funds(0n), new Set())).toEqual([]);
  });

  test('when an order is cancelled on chain or its nonce is below the maker nonce, then it is voided at once with that reason', () => {
    const cancelled = order({ minute: 0 });
    const stale = order({ minute: 1, nonce: '2' });
    const current = order({ minute: 2, nonce: '3' });
    const voided = voidedOrders([cancelled, stale, current], { collateral: 0n, tokens: {}, nonce: 3n, fundsRead: false }, new Set([cancelled.order_hash]));
    expect(voided.map((v) => [v.order_hash, v.reason])).toEqual([[cancelled.order_hash, 'ONCHAIN_CANCEL'], [stale.order_hash, 'NONCE_BUMPED']]);
  });

  test('when an order was voided for its nonce, then it no longer counts against the backing', () => {
    const old = order({ minute: 0, nonce: '1' });
    const bumped = order({ minute: 1, nonce: '0' });
    // The backing covers one order (5): the older one stands, the bumped one ends NONCE_BUMPED only.
    const voided = voidedOrders([old, bumped], { ...funds(5n * E18), nonce: 1n }, new Set());
    expect(voided.map((v) => [v.order_hash, v.reason])).toEqual([[bumped.order_hash, 'NONCE_BUMPED']]);
  });
});
