// Reading an upstream answer with a size cap: shared by the marketplaces' HTTP helper and Open
// Library's client (book-details), which must not import each other (module boundaries).
/**
 * The largest answer read (MARKETPLACE_MAX_RESPONSE_BYTES). Real answers are far below it (50 eBay
 * summaries, 20 Amazon offers responses, 50 Open Library books: well under 1 MB); a body beyond it is
 * a marketplace misbehaving, and reading one whole (200 MB) took the server from 548 to 1,397 MB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** A body larger than the cap: reading stopped there, and the connection was dropped. */
export class ResponseTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`answer larger than ${formatMegabytes(maxBytes)} (MARKETPLACE_MAX_RESPONSE_BYTES): not read`);
  }
}

const formatMegabytes = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(2))} MB`;

/**
 * The body's bytes, read chunk by chunk and given up (the stream cancelled) as soon as they pass
 * `maxBytes`, so an endless or huge answer never sits in memory whole. A declared Content-Length
 * over the cap is refused before reading anything.
 */
export async function readBodyCapped(res: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new ResponseTooLargeError(maxBytes);
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ResponseTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
