// Saving a server answer as a file in the browser (CSVs are text/csv files named with a
// source prefix and a timestamp: docs/requirements.md, Tables).
import { fileTimestamp } from '@app/domain/files';

export { fileTimestamp };

/** e.g. abe_books_price_lookups_20250101T120000.csv: the name used when the server gives none. */
export function csvFilename(prefix: string, date: Date = new Date()): string {
  return `${prefix}_price_lookups_${fileTimestamp(date)}.csv`;
}

/** The filename of a Content-Disposition header (plain or RFC 5987 form), if any. */
export function filenameFromDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const star = header.match(/filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i)?.[1];
  if (star !== undefined) {
    try {
      return decodeURIComponent(star.trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain form
    }
  }
  const plain = header.match(/filename\s*=\s*("([^"]*)"|[^;]+)/i);
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim();
  return name || undefined;
}

/** Hands `content` to the browser as a download called `filename`. */
export function saveFile(content: Blob | string, filename: string, type = 'text/csv'): void {
  const blob = new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser a moment to start reading the blob before it goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
