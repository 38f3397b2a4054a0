// Names of downloaded files, the same on the server (Content-Disposition) and in the browser (the
// fallback when the server gives none).

/** The moment in a CSV's name: 20250101T120000 (UTC). */
export function fileTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
}
