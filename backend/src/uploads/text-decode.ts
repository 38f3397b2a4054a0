// Bytes of a CSV upload → a string. Excel writes UTF-8 with a BOM ("CSV UTF-8"), UTF-16 LE with a
// BOM ("Unicode Text"), and the legacy code page (Windows-1252) for plain "CSV".
import { unusable } from './upload-error.ts';

/** The whole byte pairs of UTF-16 text: a trailing odd byte is dropped rather than decoded as U+FFFD. */
const wholePairs = (data: Uint8Array) => data.subarray(0, data.length - (data.length % 2));

/** UTF-16 without a BOM shows as a zero in every other byte of ASCII text. */
function guessUtf16(data: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(data.length, 1024) & ~1;
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (data[i] === 0) evenZeros++;
    if (data[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.7 && evenZeros < pairs * 0.1) return 'utf-16le';
  if (evenZeros > pairs * 0.7 && oddZeros < pairs * 0.1) return 'utf-16be';
  return null;
}

export function decodeText(data: Buffer): string {
  let text: string;
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
    text = new TextDecoder('utf-8').decode(data.subarray(3));
  } else if (data[0] === 0xff && data[1] === 0xfe) {
    text = new TextDecoder('utf-16le').decode(data.subarray(2));
  } else if (data[0] === 0xfe && data[1] === 0xff) {
    text = new TextDecoder('utf-16be').decode(wholePairs(data.subarray(2)));
  } else {
    const utf16 = guessUtf16(data);
    if (utf16 === 'utf-16le') text = new TextDecoder('utf-16le').decode(data);
    else if (utf16 === 'utf-16be') text = new TextDecoder('utf-16be').decode(wholePairs(data));
    else {
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(data);
      } catch {
        text = new TextDecoder('windows-1252').decode(data);
      }
    }
  }
  assertText(text);
  return text;
}

/** Control characters other than tab and line breaks mean a binary file with a .csv name. */
function assertText(text: string): void {
  const n = Math.min(text.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd) control++;
  }
  if (control > Math.max(2, n * 0.01)) {
    throw unusable('This .csv file does not contain text. Save the spreadsheet as CSV (or upload the .xlsx) and try again.');
  }
}
