// How dates read in tables. Server timestamps are UTC (docs/requirements.md, Tables); one without a zone is
// read as UTC.
export function parseServerDate(value: string): Date {
  return new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
}

export function formatDateTime(value: string): string {
  const d = parseServerDate(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString();
}

export function formatTime(ms: number): string {
  return new Date(ms).toLocaleTimeString();
}

/**
 * An amount of money: two decimals and its currency ("$12.50", "£8.00"); a value that is not a
 * number is shown as it came. A code Intl does not know still reads as "12.50 XYZ".
 */
export function formatMoney(value: unknown, currency: string): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return String(value);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
  } catch {
    return `${n.toFixed(2)} ${currency}`;
  }
}
