// One part of a checked .xlsx zip, inflated a slice at a time and handed on as text: a sheet of
// any size passes through a few hundred kilobytes of memory. fflate inflates synchronously, so a
// reader can stop (throw) at any row without leaving a stream behind.
import { Inflate } from 'fflate';
import type { CheckedZipEntry } from './zip-guard.ts';
import { unusable } from './upload-error.ts';

/** fflate's errors carry a numeric code; anything else (a limit the reader hit) passes through. */
const isInflateError = (err: unknown) => typeof (err as { code?: unknown } | null)?.code === 'number';

/** Compressed bytes pushed at once: deflate expands at most ~1032×, so one push yields ≤ ~4 MB. */
const SLICE = 4 * 1024;

const damaged = () => unusable('The .xlsx file is damaged and cannot be opened. Open it in Excel, save it again and re-upload.');

/**
 * Calls `onText` with the part's text, in order. Stops at the size the checked directory declares
 * (as SheetJS did): a part that inflates to more is read only that far.
 */
export function readZipPart(zip: Uint8Array, entry: CheckedZipEntry, onText: (text: string) => void): void {
  const decoder = new TextDecoder('utf-8');
  const raw = zip.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  let left = entry.uncompressedSize;
  let done = false;
  const take = (bytes: Uint8Array) => {
    if (done) return;
    const kept = bytes.length > left ? bytes.subarray(0, left) : bytes;
    left -= kept.length;
    if (left === 0) done = true;
    onText(decoder.decode(kept, { stream: !done }));
  };
  if (entry.method === 0) {
    for (let at = 0; at < raw.length && !done; at += SLICE) take(raw.subarray(at, at + SLICE));
  } else {
    const inflate = new Inflate((chunk) => take(chunk));
    try {
      for (let at = 0; at < raw.length && !done; at += SLICE) inflate.push(raw.subarray(at, at + SLICE), at + SLICE >= raw.length);
    } catch (err) {
      throw isInflateError(err) ? damaged() : err;
    }
  }
  if (!done) throw damaged(); // the part ended before the size its directory record declares
}
