// Exact decimal arithmetic for the few money sums the comparison makes in PostgreSQL `numeric`
// (backend/src/comparison/query.ts), so the phone's offline verdict (offline-verdict.ts) rounds to the
// same cent the server does. A value is an integer of units of 10^-scale.

export interface Decimal {
  units: bigint;
  scale: number;
}

const NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** Decimal text ("12.34", "-1e+21", "1.5e-7") as an exact decimal; undefined when it is not a number. */
export function parseDecimal(text: string): Decimal | undefined {
  const m = NUMBER.exec(text.trim());
  if (!m) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  if (whole === '' && fraction === '') return undefined;
  let units = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/** A double as PostgreSQL's `float8::numeric` reads it: its 15 significant digits (DBL_DIG). */
export function decimalOfDouble(x: number): Decimal {
  const d = parseDecimal(x.toPrecision(15));
  if (!d) throw new Error(`${x} is not a finite number`);
  return d;
}

/** A number as `'<String(x)>'::numeric` reads it: its shortest decimal text (how query.ts sends fees and costs). */
export function decimalOfText(x: number): Decimal {
  const d = parseDecimal(String(x));
  if (!d) throw new Error(`${x} is not a finite number`);
  return d;
}

function atScale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: atScale(a, scale) + atScale(b, scale), scale };
}

export const negate = (a: Decimal): Decimal => ({ units: -a.units, scale: a.scale });
export const sub = (a: Decimal, b: Decimal): Decimal => add(a, negate(b));
export const mul = (a: Decimal, b: Decimal): Decimal => ({ units: a.units * b.units, scale: a.scale + b.scale });
/** Divided by a power of ten (exact: `/ 100` in the commission). */
export const shift = (a: Decimal, places: number): Decimal => ({ units: a.units, scale: a.scale + places });

export function compare(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const [x, y] = [atScale(a, scale), atScale(b, scale)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `round(x, places)` of numeric: half away from zero. */
export function round(a: Decimal, places: number): Decimal {
  if (a.scale <= places) return a;
  const divisor = 10n ** BigInt(a.scale - places);
  const magnitude = a.units < 0n ? -a.units : a.units;
  let q = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) q += 1n;
  return { units: a.units < 0n ? -q : q, scale: places };
}

/** As a double: `numeric::double precision` (the nearest double to the exact value). */
export function toNumber(a: Decimal): number {
  const negative = a.units < 0n;
  const digits = (negative ? -a.units : a.units).toString().padStart(a.scale + 1, '0');
  const text = a.scale ? `${digits.slice(0, -a.scale)}.${digits.slice(-a.scale)}` : digits;
  return Number(negative ? `-${text}` : text);
}
