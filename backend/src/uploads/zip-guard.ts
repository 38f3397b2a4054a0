// Zip-bomb guard for .xlsx uploads. It reads only the zip's directory records (never inflating
// anything) and refuses a workbook whose parts would expand beyond the configured limit. It also
// checks that every local header agrees with the central directory, and says where each part's
// data starts: the reader (zip-part.ts) then inflates each part only up to its checked size.
// (It reads zips the way SheetJS does, which read .xlsx before the streaming reader.)
import { formatCount, tooLarge, unusable } from './upload-error.ts';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const ZIP64_EXTRA = 0x0001;
const U32_MAX = 0xffffffff;

/** A real workbook has a few dozen parts; thousands are a directory-flooding attack. */
export const MAX_ZIP_ENTRIES = 5000;

export interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** An entry whose local header was checked against the directory: its data starts at `dataOffset`. */
export interface CheckedZipEntry extends ZipEntry {
  dataOffset: number;
}

const damaged = () => unusable('The .xlsx file is damaged and cannot be opened. Open it in Excel, save it again and re-upload.');

/** Reads the ZIP64 extra field the way SheetJS does: 8-byte uncompressed, then 8-byte compressed size. */
function zip64Sizes(data: Buffer, start: number, length: number): { usz: number; csz: number } | null {
  const end = start + length;
  for (let p = start; p + 4 <= end; ) {
    const type = data.readUInt16LE(p);
    const size = data.readUInt16LE(p + 2);
    if (type === ZIP64_EXTRA) {
      const read64 = (at: number) => (at + 8 <= end ? data.readUInt32LE(at) + data.readUInt32LE(at + 4) * 2 ** 32 : 0);
      return { usz: read64(p + 4), csz: read64(p + 12) };
    }
    p += 4 + size;
  }
  return null;
}

/** The end-of-central-directory record, found the way SheetJS finds it: last signature wins. */
function findEndOfCentralDirectory(data: Buffer): number {
  for (let i = data.length - 4; i >= 0; i--) {
    if (data[i] === 0x50 && data[i + 1] === 0x4b && data[i + 2] === 0x05 && data[i + 3] === 0x06) {
      if (i + EOCD_SIZE > data.length || data.readUInt32LE(i) !== EOCD_SIGNATURE) throw damaged();
      return i;
    }
  }
  throw damaged();
}

/** The central directory's entries; throws a 422 when the records do not add up. */
export function readZipDirectory(data: Buffer): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(data);
  const entriesHere = data.readUInt16LE(eocd + 8);
  const entriesTotal = data.readUInt16LE(eocd + 10);
  const directoryOffset = data.readUInt32LE(eocd + 16);
  if (entriesHere !== entriesTotal) throw damaged(); // multi-volume archives are not workbooks
  if (entriesTotal > MAX_ZIP_ENTRIES) {
    throw tooLarge(`The workbook has too many internal parts (${formatCount(entriesTotal)}); it cannot be a normal spreadsheet.`);
  }
  const entries: ZipEntry[] = [];
  let p = directoryOffset;
  for (let i = 0; i < entriesTotal; i++) {
    if (p + CENTRAL_SIZE > data.length || data.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw damaged();
    const nameLength = data.readUInt16LE(p + 28);
    const extraLength = data.readUInt16LE(p + 30);
    const commentLength = data.readUInt16LE(p + 32);
    const next = p + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (next > data.length) throw damaged();
    let compressedSize = data.readUInt32LE(p + 20);
    let uncompressedSize = data.readUInt32LE(p + 24);
    const zip64 = zip64Sizes(data, p + CENTRAL_SIZE + nameLength, extraLength);
    // SheetJS lets a ZIP64 field override the 32-bit sizes; count whichever is larger.
    if (zip64) {
      uncompressedSize = Math.max(uncompressedSize, zip64.usz);
      compressedSize = Math.max(compressedSize, zip64.csz);
    }
    entries.push({
      name: data.toString('utf8', p + CENTRAL_SIZE, p + CENTRAL_SIZE + nameLength),
      flags: data.readUInt16LE(p + 8),
      method: data.readUInt16LE(p + 10),
      compressedSize,
      uncompressedSize,
      localHeaderOffset: data.readUInt32LE(p + 42),
    });
    p = next;
  }
  return entries;
}

/** Checks the declared sizes against `maxUncompressedBytes` and the local headers against the central directory. */
export function guardZip(data: Buffer, maxUncompressedBytes: number): CheckedZipEntry[] {
  const entries = readZipDirectory(data);
  let total = 0;
  for (const e of entries) {
    total += e.uncompressedSize;
    if (e.uncompressedSize >= U32_MAX || total > maxUncompressedBytes) {
      throw tooLarge(
        `The workbook would expand to more than ${formatCount(Math.floor(maxUncompressedBytes / 1_000_000))} MB when opened, which is over the limit. Split it into smaller files.`,
      );
    }
  }

  const checked: CheckedZipEntry[] = [];
  for (const e of entries) {
    if (e.flags & 0x2041) throw unusable('This workbook is encrypted. Remove the password in Excel and upload it again.');
    if (e.method !== 0 && e.method !== 8) throw damaged();
    const at = e.localHeaderOffset;
    if (at + LOCAL_SIZE > data.length || data.readUInt32LE(at) !== LOCAL_SIGNATURE) throw damaged();
    const nameLength = data.readUInt16LE(at + 26);
    const extraLength = data.readUInt16LE(at + 28);
    const dataStart = at + LOCAL_SIZE + nameLength + extraLength;
    if (dataStart > data.length || dataStart + e.compressedSize > data.length) throw damaged();
    checked.push({ ...e, dataOffset: dataStart });

    const localCompressed = data.readUInt32LE(at + 18);
    const localUncompressed = data.readUInt32LE(at + 22);
    const local64 = zip64Sizes(data, at + LOCAL_SIZE + nameLength, extraLength);
    const declared = [localUncompressed, local64?.usz ?? 0].filter((n) => n !== 0);
    if (declared.some((n) => n !== e.uncompressedSize)) throw damaged();
    if (
      (localCompressed !== 0 && localCompressed !== e.compressedSize) ||
      (local64 && local64.csz !== 0 && local64.csz !== e.compressedSize)
    ) {
      throw damaged();
    }
    if (e.method === 8 && e.uncompressedSize === 0) {
      // A part that claims to be empty must hold the empty deflate stream: anything else is a lie.
      if (data[dataStart] !== 0x03 || ((data[dataStart + 1] ?? 0) & 0x03) !== 0) throw damaged();
    }
  }
  return checked;
}
