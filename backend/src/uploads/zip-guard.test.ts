import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parseUpload } from './parse-upload.ts';
import { ROOMY_UPLOAD_LIMITS, UPLOAD_FIXTURES, uploadError } from '../../test/helpers/uploads.ts';
import { partsOf, tinyCellsWorkbook, zip } from '../../test/helpers/zip-writer.ts';
import { guardZip, MAX_ZIP_ENTRIES, readZipDirectory } from './zip-guard.ts';
import { must } from '@app/domain/must';

const MIXED = readFileSync(new URL('mixed.xlsx', UPLOAD_FIXTURES));

describe('readZipDirectory', () => {
  it('lists the parts of a LibreOffice workbook with their declared sizes', () => {
    const entries = readZipDirectory(MIXED);
    expect(entries.map((e) => e.name)).toEqual(
      expect.arrayContaining(['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']),
    );
    for (const e of entries) expect(e.uncompressedSize).toBeGreaterThan(0);
  });

  it('refuses a file without an end-of-directory record', () => {
    expect(uploadError(() => readZipDirectory(MIXED.subarray(0, MIXED.length - 100))).status).toBe(422);
  });

  it('refuses a directory offset that points at garbage', () => {
    const broken = Buffer.from(MIXED);
    broken.writeUInt32LE(7, broken.length - 22 + 16);
    expect(uploadError(() => readZipDirectory(broken)).message).toMatch(/damaged/);
  });
});

describe('guardZip', () => {
  it("says where each part's data starts, also when LibreOffice defers its sizes to a data descriptor", () => {
    const entries = readZipDirectory(MIXED);
    expect(entries.every((e) => e.flags & 8)).toBe(true);
    expect(MIXED.readUInt32LE(must(entries[0], 'the zip has entries').localHeaderOffset + 22)).toBe(0);
    for (const e of guardZip(MIXED, ROOMY_UPLOAD_LIMITS.maxUncompressedBytes)) {
      const at = e.localHeaderOffset;
      expect(e.dataOffset).toBe(at + 30 + MIXED.readUInt16LE(at + 26) + MIXED.readUInt16LE(at + 28));
    }
  });

  it('refuses a part that would expand past the limit, without inflating it', () => {
    const bomb = zip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(20_000_000) }]);
    expect(bomb.length).toBeLessThan(100_000);
    const err = uploadError(() => guardZip(bomb, 10_000_000));
    expect(err.status).toBe(413);
    expect(err.message).toMatch(/expand to more than 10 MB/);
  });

  it('adds up parts that each look small', () => {
    const parts = Array.from({ length: 12 }, (_, i) => ({ name: `xl/media/image${i}.bin`, data: Buffer.alloc(1_000_000) }));
    expect(uploadError(() => guardZip(zip(parts), 10_000_000)).status).toBe(413);
    expect(() => guardZip(zip(parts.slice(0, 9)), 10_000_000)).not.toThrow();
  });

  it('counts every directory record that points at the same data (overlapping-files bomb)', () => {
    const bomb = zip([{ name: 'a.xml', data: Buffer.alloc(1_000_000) }], { extraCentralCopies: 20 });
    expect(uploadError(() => guardZip(bomb, 10_000_000)).status).toBe(413);
  });

  it('refuses a directory flood', () => {
    const bomb = zip([{ name: 'a.xml', data: Buffer.from('x') }], { extraCentralCopies: MAX_ZIP_ENTRIES });
    const err = uploadError(() => guardZip(bomb, 10_000_000));
    expect(err.status).toBe(413);
    expect(err.message).toMatch(/too many internal parts/);
  });

  it('refuses a local header that disagrees with the directory', () => {
    const lying = zip([{ name: 'a.xml', data: Buffer.alloc(1000) }]);
    lying.writeUInt32LE(999_999_999, 22); // the local header's uncompressed size
    expect(uploadError(() => guardZip(lying, 10_000_000)).message).toMatch(/damaged/);
  });

  it('refuses a part that claims to be empty but holds a deflate stream', () => {
    const bomb = zip([{ name: 'a.xml', data: Buffer.alloc(50_000_000), declaredSize: 0 }]);
    expect(uploadError(() => guardZip(bomb, 10_000_000)).message).toMatch(/damaged/);
  });
});

describe('parseUpload with hostile workbooks', () => {
  it('reads a workbook rebuilt by our zip writer (the writer makes valid workbooks)', () => {
    const rebuilt = zip(partsOf(MIXED));
    expect(parseUpload(rebuilt, 'mixed.xlsx', ROOMY_UPLOAD_LIMITS).report.isbns_accepted).toBe(10);
  });

  it('reads a workbook written with data descriptors', () => {
    const streamed = zip(partsOf(MIXED).map((p) => ({ ...p, descriptor: true })));
    expect(parseUpload(streamed, 'mixed.xlsx', ROOMY_UPLOAD_LIMITS).report.isbns_accepted).toBe(10);
  });

  it('refuses a real workbook carrying a zip bomb before inflating anything', () => {
    const bomb = zip([...partsOf(MIXED), { name: 'xl/media/image1.png', data: Buffer.alloc(30_000_000) }]);
    const started = performance.now();
    const err = uploadError(() => parseUpload(bomb, 'books.xlsx', ROOMY_UPLOAD_LIMITS));
    expect(err.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('does not let a part that under-declares its size grow past the declaration', () => {
    // Sheet XML padded with 30 MB of spaces but declared as its real length only (sizes 0 in the
    // local header, as streaming writers leave them).
    const parts = partsOf(MIXED);
    const sheet = must(
      parts.find((p) => p.name === 'xl/worksheets/sheet1.xml'),
      'the fixture has a first sheet',
    );
    const padded = Buffer.concat([sheet.data, Buffer.alloc(30_000_000, ' ')]);
    const lying = zip(parts.map((p) => (p === sheet ? { ...p, data: padded, declaredSize: sheet.data.length, descriptor: true } : p)));
    // Every inflated byte passes through one TextDecoder: count what it is given.
    const decoded = vi.spyOn(TextDecoder.prototype, 'decode');
    let result: ReturnType<typeof parseUpload> | undefined;
    let total = 0;
    try {
      result = parseUpload(lying, 'books.xlsx', ROOMY_UPLOAD_LIMITS);
      for (const [input] of decoded.mock.calls) total += input instanceof Uint8Array ? input.length : 0;
    } finally {
      decoded.mockRestore();
    }
    expect(total).toBeGreaterThan(sheet.data.length);
    expect(total).toBeLessThan(1_000_000);
    expect(result.report.isbns_accepted).toBe(10); // read exactly the declared bytes
  });
});

describe('parseUpload with workbooks of many cells (issue 20)', () => {
  it('refuses a small workbook of millions of tiny cells with a 413, stopping at the cell limit', () => {
    const bomb = tinyCellsWorkbook(2_000_000);
    expect(bomb.length).toBeLessThan(500_000);
    // Every cell passes through one TextDecoder: count what it is given before the refusal.
    const decoded = vi.spyOn(TextDecoder.prototype, 'decode');
    let err: ReturnType<typeof uploadError> | undefined;
    let total = 0;
    try {
      err = uploadError(() =>
        parseUpload(bomb, 'cells.xlsx', { ...ROOMY_UPLOAD_LIMITS, maxCells: 100_000, maxUncompressedBytes: 100_000_000 }),
      );
      for (const [input] of decoded.mock.calls) total += input instanceof Uint8Array ? input.length : 0;
    } finally {
      decoded.mockRestore();
    }
    expect([err.status, err.message]).toEqual([
      413,
      'The file has more than 100,000 cells, which is the limit. Delete the columns you do not need, or split it into smaller files.',
    ]);
    // Read up to the 100,000th cell (15 bytes each) and a slice more, not the 30 MB the sheet holds.
    expect(total).toBeLessThan(100_000 * 15 + 4_500_000);
  });

  it('counts blank cells and empty rows too', () => {
    const parts = partsOf(MIXED);
    const rows = '<row/>'.repeat(200_000);
    const sheet = Buffer.from(`<worksheet><sheetData>${rows}</sheetData></worksheet>`);
    const empty = zip(parts.map((p) => (p.name === 'xl/worksheets/sheet1.xml' ? { ...p, data: sheet } : p)));
    expect(uploadError(() => parseUpload(empty, 'rows.xlsx', { ...ROOMY_UPLOAD_LIMITS, maxCells: 100_000 })).status).toBe(413);
  });

  it('refuses a cell beyond Excel’s last column before sizing a row by it', () => {
    const parts = partsOf(MIXED);
    const sheet = Buffer.from('<worksheet><sheetData><row r="1"><c r="ZZZZZZ1"><v>1</v></c></row></sheetData></worksheet>');
    const wide = zip(parts.map((p) => (p.name === 'xl/worksheets/sheet1.xml' ? { ...p, data: sheet } : p)));
    const err = uploadError(() => parseUpload(wide, 'wide.xlsx', ROOMY_UPLOAD_LIMITS));
    expect([err.status, err.message]).toEqual([
      413,
      'Row 1 of sheet "Books" has a cell beyond column XFD, the last column Excel allows. Save the sheet again from Excel, or as .csv.',
    ]);
  });

  it('holds a CSV to the same limits', () => {
    const cells = `ISBN\n${'1,'.repeat(20_000)}\n`;
    expect(uploadError(() => parseUpload(Buffer.from(cells), 'wide.csv', ROOMY_UPLOAD_LIMITS)).status).toBe(413);
    const many = `ISBN\n${'9780306406157\n'.repeat(60_000)}`;
    expect(
      uploadError(() => parseUpload(Buffer.from(many), 'long.csv', { ...ROOMY_UPLOAD_LIMITS, maxRows: 100_000, maxCells: 100_000 })).status,
    ).toBe(413);
  });
});

describe('the SheetJS the guard mirrors', () => {
  // The guard copies SheetJS's zip internals (EOCD search, ZIP64 extra order); SheetJS still reads
  // .xls. The dependency is pinned exactly, and this fails when what is installed is not what the
  // guard was checked against.
  it('is installed at the exact version pinned in package.json', async () => {
    const pinned = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).dependencies['@e965/xlsx'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = (await import('@e965/xlsx')).version;
    expect(installed).toBe(pinned);
  });
});
