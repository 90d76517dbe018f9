/**
 * Price strings to ticks (1 tick = 0.01). Two readings, both float-free:
 * - `priceToTicksStrict` for the server: more than 2 decimals is sub-tick and rejected.
 * - `priceToTicksRoundHalfUp` for clients: the spec's Signing rule 3 rounds half up before signing.
 */
import { parseUnitsStrict } from '../money';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

function checkRange(ticks: bigint, price: string): number {
  if (ticks < 1n || ticks > 100n) throw new RangeError(`price ${price} is outside [0.01, 1.00]`);
  return Number(ticks);
}

export function priceToTicksStrict(price: string): number {
  return checkRange(parseUnitsStrict(price, 2), price);
}

export function priceToTicksRoundHalfUp(price: string): number {
  const match = DECIMAL.exec(price);
  if (!match) throw new RangeError(`price ${price} is not a decimal`);
  const fraction = (match[2] ?? '').padEnd(3, '0');
  const ticks = BigInt(match[1]) * 100n + BigInt(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1n : 0n);
  return checkRange(ticks, price);
}

export function ticksToPrice(ticks: number): string {
  const whole = Math.floor(ticks / 100);
  const cents = ticks % 100;
  if (cents === 0) return String(whole);
  return `${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}
