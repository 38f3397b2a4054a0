// How dates read in tables. Server timestamps are UTC (spec §3); one without a zone is read as UTC.
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
