import { describe, expect, it } from 'vitest';
import { countRead, readScannedCode, SAME_CODE_WINDOW_MS, type SeenCodes } from './scan-code.ts';
import { ISBN_REJECTION as R } from './isbn.ts';

describe('readScannedCode', () => {
  it.each([
    ['9780131457577', undefined, '9780131457577'],
    ['9780131457577', 'ean_13', '9780131457577'],
    ['9791032305690', 'ean_13', '9791032305690'],
    // The price add-on, however the decoder or scanner joins it.
    ['978013145757751999', undefined, '9780131457577'],
    ['9780131457577 51999', 'ean_13', '9780131457577'],
    ['9780131457577-51999', undefined, '9780131457577'],
    ['978013145757712', undefined, '9780131457577'],
    // A wedge scanner's stray spaces or line end.
    ['  9780131457577\r\n', undefined, '9780131457577'],
  ])('reads %j (%s) as %s', (text, format, isbn) => {
    expect(readScannedCode(text, format)).toEqual({ isbn });
  });

  it.each([
    ['036000291452', 'upc_a', R.upc],
    ['036000291452', undefined, R.upc],
    // A UPC-A as an EAN-13 decoder reads it (leading 0), with and without its add-on.
    ['0036000291452', 'ean_13', R.upc],
    ['0036000291452 51999', 'ean_13', R.upc],
    ['01234565', 'upc_e', R.upc],
    ['9780131457578', 'ean_13', R.isbn13Check],
    ['4006381333931', 'ean_13', R.notBookland],
    ['9790260000438', 'ean_13', R.ismn],
    ['https://example.com/book', 'qr_code', R.notAnIsbn],
    ['31234000123456', 'codabar', R.wrongLength],
    // Read as an ISBN by the normaliser, but not a book's barcode: a scan never guesses.
    ['0131457578', 'code_128', R.notBookland],
    ['978-0-13-145757-7 and more', 'qr_code', R.notBookland],
  ])('refuses %j (%s): %s', (text, format, reason) => {
    expect(readScannedCode(text, format)).toEqual({ reason });
  });
});

describe('countRead', () => {
  const run = (reads: [string, number][]) => {
    let seen: SeenCodes = new Map();
    return reads.map(([code, now]) => {
      const r = countRead(seen, code, now);
      seen = r.seen;
      return r.counts;
    });
  };

  it('counts the first read of a code', () => {
    expect(run([['a', 0]])).toEqual([true]);
  });

  it('counts a code held in view once, however long, while each sighting is within the window', () => {
    const frames: [string, number][] = Array.from({ length: 50 }, (_, i) => ['a', i * 100]);
    expect(run(frames).filter(Boolean)).toHaveLength(1);
  });

  it('counts the same code again once it has been out of view for the window', () => {
    expect(
      run([
        ['a', 0],
        ['a', SAME_CODE_WINDOW_MS - 1],
        ['a', 2 * SAME_CODE_WINDOW_MS - 1],
      ]),
    ).toEqual([true, false, true]);
  });

  it('keeps codes apart: another book in between does not reset the first', () => {
    expect(
      run([
        ['a', 0],
        ['b', 100],
        ['a', 200],
        ['b', 300],
      ]),
    ).toEqual([true, true, false, false]);
  });

  it('forgets codes older than the window, so the memory stays small', () => {
    const { seen } = countRead(
      new Map([
        ['old', 0],
        ['recent', 9000],
      ]),
      'new',
      10_000,
    );
    expect([...seen.keys()].sort()).toEqual(['new', 'recent']);
  });

  it('does not change the map it was given', () => {
    const seen = new Map([['a', 0]]);
    countRead(seen, 'b', 10);
    expect([...seen]).toEqual([['a', 0]]);
  });
});
