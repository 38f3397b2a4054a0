// A minimal zip writer for tests, so each test controls exactly what the directory records say,
// and the hostile workbooks built with it.
import { readFileSync } from 'node:fs';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { must } from '@app/domain/must';
import { readZipDirectory } from '../../src/uploads/zip-guard.ts';
import { UPLOAD_FIXTURES } from './uploads.ts';

export interface Part {
  name: string;
  data: Buffer;
  /** Write sizes only in a data descriptor (local header sizes 0), as streaming writers do. */
  descriptor?: boolean;
  /** Lie in both headers about the uncompressed size. */
  declaredSize?: number;
}

/** A minimal zip writer, so each test controls exactly what the directory records say. */
export function zip(parts: Part[], options: { extraCentralCopies?: number } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const compressed = deflateRawSync(part.data);
    const size = part.declaredSize ?? part.data.length;
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.descriptor ? 8 : 0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.descriptor ? 0 : crc32(part.data), 14);
    local.writeUInt32LE(part.descriptor ? 0 : compressed.length, 18);
    local.writeUInt32LE(part.descriptor ? 0 : size, 22);
    local.writeUInt16LE(name.length, 26);
    const descriptor = Buffer.alloc(part.descriptor ? 16 : 0);
    if (part.descriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc32(part.data), 4);
      descriptor.writeUInt32LE(compressed.length, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(part.descriptor ? 8 : 0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(part.data), 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(Buffer.concat([central, name]));
    locals.push(local, name, compressed, descriptor);
    offset += local.length + name.length + compressed.length + descriptor.length;
  }
  // Extra directory records pointing at the first part: the "overlapping files" bomb.
  for (let i = 0; i < (options.extraCentralCopies ?? 0); i++) centrals.push(must(centrals[0], 'a first central record'));
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length, 8);
  end.writeUInt16LE(centrals.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The parts of a real workbook, so a rebuilt zip is still a readable .xlsx. */
export function partsOf(xlsx: Buffer): Part[] {
  return readZipDirectory(xlsx).map((e) => {
    const at = e.localHeaderOffset;
    const start = at + 30 + xlsx.readUInt16LE(at + 26) + xlsx.readUInt16LE(at + 28);
    const raw = xlsx.subarray(start, start + e.compressedSize);
    return { name: e.name, data: e.method === 8 ? inflateRawSync(raw) : Buffer.from(raw) };
  });
}

/** A real workbook (mixed.xlsx) whose first sheet's data is `sheetData` (its <row> elements). */
function workbookWithSheet(sheetData: string): Buffer {
  const sheet = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData></worksheet>`,
  );
  const parts = partsOf(readFileSync(new URL('mixed.xlsx', UPLOAD_FIXTURES)));
  return zip(parts.map((p) => (p.name === 'xl/worksheets/sheet1.xml' ? { ...p, data: sheet } : p)));
}

/**
 * A real workbook whose first sheet is `cells` tiny numeric cells, 1,000 a row: a few hundred
 * kilobytes that describe millions of cells (issue 20).
 */
export function tinyCellsWorkbook(cells: number): Buffer {
  const row = `<row>${'<c><v>1</v></c>'.repeat(1000)}</row>`;
  return workbookWithSheet(row.repeat(Math.ceil(cells / 1000)));
}

/** A real workbook whose first sheet is one column of inline text cells, as written (_xHHHH_ escapes included). */
export function oneColumnWorkbook(cells: string[]): Buffer {
  return workbookWithSheet(cells.map((text) => `<row><c t="inlineStr"><is><t>${text}</t></is></c></row>`).join(''));
}
