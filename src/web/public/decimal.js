// Decimal strings from the API stay exact: they are compared and added as scaled BigInts, never
// parsed as floating-point numbers.

function fractionDigits(value) {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/** The value times 10^scale, as a BigInt (scale at least the value's own fraction digits). */
function scaled(value, scale) {
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const units = BigInt(whole || '0') * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  return negative ? -units : units;
}

function unscaled(units, scale) {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareDecimal(a, b) {
  const scale = Math.max(fractionDigits(a), fractionDigits(b));
  const [x, y] = [scaled(a, scale), scaled(b, scale)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Running totals of decimal strings, exact: ['1', '0.5'] gives ['1', '1.5']. */
export function runningTotals(values) {
  const scale = Math.max(0, ...values.map(fractionDigits));
  let total = 0n;
  return values.map((value) => unscaled((total += scaled(value, scale)), scale));
}

/** part / whole in thousandths (0..1000), for a depth bar's width; whole > 0. */
export function permille(part, whole) {
  const scale = Math.max(fractionDigits(part), fractionDigits(whole));
  const denominator = scaled(whole, scale);
  return denominator > 0n ? Number((scaled(part, scale) * 1000n) / denominator) : 0;
}
