/**
 * Parses a plain decimal string ("12", "0.5", "1.250") into integer base units of 10^decimals,
 * without ever going through a JS float. Refuses anything that would need rounding, so a value
 * is either represented exactly or rejected.
 */
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export class InvalidDecimalError extends Error {
  constructor(readonly input: string, reason: string) {
    super(`Invalid decimal "${input}": ${reason}`);
    this.name = 'InvalidDecimalError';
  }
}

export function parseUnitsStrict(decimal: string, decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`decimals must be a non-negative integer`);
  const match = DECIMAL.exec(decimal);
  if (!match) throw new InvalidDecimalError(decimal, 'expected digits with an optional fractional part');
  const whole = match[1];
  const fraction = match[2] ?? '';
  if (fraction.replace(/0+$/, '').length > decimals) {
    throw new InvalidDecimalError(decimal, `more than ${decimals} fractional digits`);
  }
  const padded = fraction.slice(0, decimals).padEnd(decimals, '0');
  return BigInt(whole + padded);
}
