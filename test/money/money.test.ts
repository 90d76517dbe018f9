import fc from 'fast-check';
import { formatCanonical, parseUnitsStrict, InvalidDecimalError } from '../../src/money';

describe('parseUnitsStrict', () => {
  it('when given plain decimals, then returns exact base units', () => {
    expect(parseUnitsStrict('12', 18)).toBe(12n * 10n ** 18n);
    expect(parseUnitsStrict('0.5', 2)).toBe(50n);
    expect(parseUnitsStrict('0.01', 2)).toBe(1n);
    expect(parseUnitsStrict('1.250', 2)).toBe(125n);
    expect(parseUnitsStrict('0.000000000000000001', 18)).toBe(1n);
    expect(parseUnitsStrict('7', 0)).toBe(7n);
  });

  it('when the fraction has more significant digits than allowed, then rejects', () => {
    expect(() => parseUnitsStrict('0.001', 2)).toThrow(InvalidDecimalError);
    expect(() => parseUnitsStrict('0.0000000000000000001', 18)).toThrow(/more than 18 fractional digits/);
  });

  it('when the input is not a plain decimal, then rejects', () => {
    for (const bad of ['', '.5', '5.', '-1', '+1', '1e3', ' 1', '0x10', '1,5', 'NaN', '1.2.3']) {
      expect(() => parseUnitsStrict(bad, 18)).toThrow(InvalidDecimalError);
    }
  });
});

describe('formatCanonical', () => {
  it('when formatting, then prints no trailing zeros and no exponent', () => {
    expect(formatCanonical(5n * 10n ** 17n, 18)).toBe('0.5');
    expect(formatCanonical(12n * 10n ** 18n, 18)).toBe('12');
    expect(formatCanonical(1n, 2)).toBe('0.01');
    expect(formatCanonical(0n, 18)).toBe('0');
    expect(formatCanonical(-325n, 2)).toBe('-3.25');
    expect(formatCanonical(10n ** 40n, 18)).toBe('10000000000000000000000');
    expect(formatCanonical(1n, 18)).toBe('0.000000000000000001');
  });

  it('when round-tripping any base-unit amount, then parse(format(x)) === x', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (value, decimals) => {
        expect(parseUnitsStrict(formatCanonical(value, decimals), decimals)).toBe(value);
      }),
    );
  });
});
