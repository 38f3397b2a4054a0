// A code read by the scan page's camera or a hardware scanner (a keyboard wedge) → the book's
// ISBN-13, or why not. A book's barcode is a Bookland EAN-13 (978/979), often followed by a 5-digit
// price add-on that says nothing about the book. Everything else is refused with the reason the
// upload's normaliser gives, so the scan page and a spreadsheet say the same thing about a UPC.
import { readOneIsbn } from './book.ts';
import { ISBN_REJECTION } from './isbn.ts';

export type ScanRead = { isbn: string } | { reason: string };

/** Same code again within this time (of its last sighting) is the same scan: a camera sees a barcode in every frame. */
export const SAME_CODE_WINDOW_MS = 2000;

// 13 digits, then maybe a 2- or 5-digit add-on; decoders and scanners may put a space or hyphen between.
const EAN_WITH_ADD_ON = /^(\d{13})(?:\d{2}|\d{5})?$/;
const SEPARATORS = /[\s-]/g;
// Formats as the Barcode Detection API names them. A UPC-E's 8 digits mean nothing to the normaliser.
const UPC_FORMATS = new Set(['upc_a', 'upc_e']);

/**
 * `format` is the decoder's name for the symbology, when known (a keyboard wedge does not say).
 * Only an EAN-13 is a book's barcode: text that the normaliser would read as an ISBN some other way
 * (an ISBN-10 in a QR code, 8 digits that pass as an ISBN-10 once zero-padded) is refused as not an
 * ISBN-13, because a scan must never guess.
 */
export function readScannedCode(text: string, format?: string): ScanRead {
  const ean = EAN_WITH_ADD_ON.exec(text.trim().replace(SEPARATORS, ''))?.[1];
  // The add-on is dropped before the normaliser sees it, so a UPC written as EAN-13 with an add-on
  // is still told to be a UPC.
  if (ean !== undefined) return readOneIsbn(ean);
  if (format !== undefined && UPC_FORMATS.has(format)) return { reason: ISBN_REJECTION.upc };
  const read = readOneIsbn(text);
  return 'reason' in read ? read : { reason: ISBN_REJECTION.notBookland };
}

/** When each code was last seen (ms); only codes seen within the window are kept. */
export type SeenCodes = ReadonlyMap<string, number>;

/**
 * Whether a read of `code` at `now` (ms) counts as a new scan. A repeat within the window of the
 * code's *last* sighting does not count and extends the window: a phone held over one book for five
 * seconds scans it once; taking the book away for two seconds and back scans it again (a second copy).
 */
export function countRead(
  seen: SeenCodes,
  code: string,
  now: number,
  windowMs: number = SAME_CODE_WINDOW_MS,
): { counts: boolean; seen: SeenCodes } {
  const last = seen.get(code);
  const counts = last === undefined || now - last >= windowMs;
  const next = new Map<string, number>();
  for (const [c, t] of seen) if (now - t < windowMs) next.set(c, t);
  next.set(code, now);
  return { counts, seen: next };
}
