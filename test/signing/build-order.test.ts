import { buildOrder, orderAmounts, priceToTicksRoundHalfUp, priceToTicksStrict, ticksToPrice, SIDE } from '../../src/signing';

const MARKET = {
  exchange: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  chainId: 56,
  tokens: [{ outcome: 1, token_id: '111' }, { outcome: 0, token_id: '222' }],
  decimals: 18,
  feeRateBps: 100,
} as const;
const MAKER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const E18 = 10n ** 18n;

describe('orderAmounts (decisions section 1)', () => {
  it('when buying, then makerAmount = ceil(S*T/100) and takerAmount = S', () => {
    expect(orderAmounts('BUY', 10n * E18, 55)).toEqual({ makerAmount: 55n * E18 / 10n, takerAmount: 10n * E18 });
    expect(orderAmounts('BUY', 1n, 1)).toEqual({ makerAmount: 1n, takerAmount: 1n }); // 0.01 rounds up to 1
    expect(orderAmounts('BUY', 333n, 33)).toEqual({ makerAmount: 110n, takerAmount: 333n }); // 109.89 -> 110
  });

  it('when selling, then makerAmount = S and takerAmount = floor(S*T/100)', () => {
    expect(orderAmounts('SELL', 333n, 33)).toEqual({ makerAmount: 333n, takerAmount: 109n });
    expect(orderAmounts('SELL', 10n * E18, 100)).toEqual({ makerAmount: 10n * E18, takerAmount: 10n * E18 });
  });

  it('when the price is outside 1..100 ticks or size is not positive, then it throws', () => {
    expect(() => orderAmounts('BUY', 1n, 0)).toThrow(RangeError);
    expect(() => orderAmounts('BUY', 1n, 101)).toThrow(RangeError);
    expect(() => orderAmounts('SELL', 0n, 50)).toThrow(RangeError);
  });
});

describe('price ticks', () => {
  it('when strict, then sub-tick prices are rejected', () => {
    expect(priceToTicksStrict('0.55')).toBe(55);
    expect(priceToTicksStrict('1')).toBe(100);
    expect(priceToTicksStrict('0.500')).toBe(50);
    expect(() => priceToTicksStrict('0.555')).toThrow();
    expect(() => priceToTicksStrict('0')).toThrow(RangeError);
    expect(() => priceToTicksStrict('1.01')).toThrow(RangeError);
  });

  it('when rounding for signing, then half rounds up', () => {
    expect(priceToTicksRoundHalfUp('0.555')).toBe(56);
    expect(priceToTicksRoundHalfUp('0.5549999')).toBe(55);
    expect(priceToTicksRoundHalfUp('0.005')).toBe(1);
    expect(() => priceToTicksRoundHalfUp('0.004')).toThrow(RangeError);
  });

  it('when formatting ticks, then the price is canonical', () => {
    expect([1, 5, 10, 50, 55, 100].map(ticksToPrice)).toEqual(['0.01', '0.05', '0.1', '0.5', '0.55', '1']);
  });
});

describe('buildOrder', () => {
  it('when building a BUY YES, then it targets the YES token with the market fee and exact amounts', () => {
    const built = buildOrder({ market: MARKET, maker: MAKER, side: 'BUY', outcome: 1, price: '0.555', size: '12.5', salt: 9n, nonce: 2n });
    expect(built.price).toBe('0.56');
    expect(built.domain).toEqual({ chainId: 56, verifyingContract: MARKET.exchange });
    expect(built.order).toEqual({
      salt: 9n, maker: MAKER, signer: MAKER, taker: '0x0000000000000000000000000000000000000000', tokenId: 111n,
      makerAmount: 7n * E18, takerAmount: 125n * E18 / 10n, expiration: 0n, nonce: 2n, feeRateBps: 100n,
      side: SIDE.BUY, signatureType: 0,
    });
  });

  it('when building a SELL NO, then maker amount is the size in base units', () => {
    const built = buildOrder({ market: MARKET, maker: MAKER, side: 'SELL', outcome: 0, price: '0.3', size: '0.1' });
    expect(built.order.tokenId).toBe(222n);
    expect(built.order.makerAmount).toBe(E18 / 10n);
    expect(built.order.takerAmount).toBe(3n * E18 / 100n);
    expect(built.order.salt).toBeGreaterThan(0n);
  });

  it('when the size has more decimals than the market, then it throws', () => {
    expect(() => buildOrder({ market: { ...MARKET, decimals: 2 }, maker: MAKER, side: 'BUY', outcome: 1, price: '0.5', size: '0.123' })).toThrow(/fractional digits/);
  });
});
