import { embeddedTicker, tickerValues } from '../../src/markets/ticker-math';

describe('ticker values', () => {
  test('when both sides exist and the spread is at most 0.10, then the display price is the midpoint', () => {
    expect(tickerValues({ best_bid: '0.4', best_ask: '0.5', last_price: '0.9' })).toEqual({
      best_bid: '0.4', best_ask: '0.5', last_price: '0.9', spread: '0.1', display_price_yes: '0.45', display_price_no: '0.55',
    });
  });

  test('when the spread is wider than 0.10, then the display price is the last trade price', () => {
    expect(tickerValues({ best_bid: '0.2', best_ask: '0.8', last_price: '0.33' })).toMatchObject({ spread: '0.6', display_price_yes: '0.33', display_price_no: '0.67' });
  });

  test('when the spread is wide and there is no trade, then the midpoint is shown; with one side only and no trade, nothing', () => {
    expect(tickerValues({ best_bid: '0.2', best_ask: '0.8', last_price: null }).display_price_yes).toBe('0.5');
    expect(tickerValues({ best_bid: '0.2', best_ask: null, last_price: null })).toMatchObject({ spread: null, display_price_yes: null, display_price_no: null });
  });

  test('when there is no cache, then the standalone values are null and the embedded ticker is null', () => {
    expect(Object.values(tickerValues(null)).every((v) => v === null)).toBe(true);
    expect(embeddedTicker(null)).toBeNull();
  });

  test('when embedded, then values are JSON numbers', () => {
    const t = embeddedTicker({ chain_id: 56, condition_id: '0x', best_bid: '0.01', best_ask: '1', last_price: null, updated_at: new Date() });
    expect(t).toEqual({ bestBid: 0.01, bestAsk: 1, lastPrice: null, spread: 0.99, displayPriceYES: 0.505, displayPriceNO: 0.495 });
  });
});
