// Which reader a file needs, decided by its extension and confirmed by its first bytes: a PNG or
// a workbook renamed .csv must be refused with a clear message, not parsed as garbage.
import { unusable } from './upload-error.ts';

export type FileKind = 'csv' | 'xlsx' | 'xls';

const EXTENSIONS: Record<string, FileKind> = { '.csv': 'csv', '.xlsx': 'xlsx', '.xls': 'xls' };

export function fileKindFromName(filename: string): FileKind {
  const dot = filename.lastIndexOf('.');
  const ext = dot === -1 ? '' : filename.slice(dot).toLowerCase().trim();
  const kind = EXTENSIONS[ext];
  if (kind) return kind;
  const what = ext === '' ? 'A file without an extension' : `The file type "${ext}"`;
  throw unusable(`${what} is not supported. Upload a .csv, .xlsx or .xls file.`);
}

type Content = 'zip' | 'ole2' | 'png' | 'jpeg' | 'gif' | 'pdf' | 'gzip' | 'other';

const MAGIC: [Content, number[]][] = [
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
  ['ole2', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
  ['png', [0x89, 0x50, 0x4e, 0x47]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['gif', [0x47, 0x49, 0x46, 0x38]],
  ['pdf', [0x25, 0x50, 0x44, 0x46]],
  ['gzip', [0x1f, 0x8b]],
];

function sniff(data: Uint8Array): Content {
  for (const [content, bytes] of MAGIC) {
    if (data.length >= bytes.length && bytes.every((b, i) => data[i] === b)) return content;
  }
  return 'other';
}

const DESCRIBE: Record<Exclude<Content, 'other'>, string> = {
  zip: 'a ZIP archive',
  ole2: 'an old-style Office file',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  pdf: 'a PDF document',
  gzip: 'a compressed (gzip) file',
};

/** An Excel password turns an .xlsx into an OLE2 container holding "EncryptedPackage". */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/** Throws a 422 when the bytes are not what the extension promises. */
export function assertContentMatchesKind(kind: FileKind, data: Buffer): void {
  if (data.length === 0) throw unusable('The file is empty.');
  const content = sniff(data);
  switch (kind) {
    case 'xlsx':
      if (content === 'zip') return;
      if (content === 'ole2') {
        throw unusable(
          data.includes(ENCRYPTED_PACKAGE)
            ? 'This workbook is password-protected. Remove the password in Excel and upload it again.'
            : 'This file is an old-style .xls workbook with an .xlsx name. Rename it to .xls, or save it as .xlsx in Excel.',
        );
      }
      if (content === 'other')
        throw unusable(
          'This file is not an Excel .xlsx workbook (it looks like text, such as a CSV file). Use the right extension or save it as .xlsx.',
        );
      throw unusable(`This file is not an Excel .xlsx workbook: it is ${DESCRIBE[content]}.`);
    case 'xls':
      if (content === 'ole2') return;
      if (content === 'zip') throw unusable('This file is an .xlsx workbook with an .xls name. Rename it to .xlsx and upload it again.');
      if (content === 'other')
        throw unusable(
          'This .xls file is not an Excel workbook (it looks like text or a web page). Open it in Excel and save it as .xlsx or .csv.',
        );
      throw unusable(`This file is not an Excel .xls workbook: it is ${DESCRIBE[content]}.`);
    case 'csv':
      if (content === 'zip' || content === 'ole2') {
        throw unusable('This .csv file is really an Excel workbook. Rename it to .xlsx (or .xls), or save it as CSV in Excel.');
      }
      if (content !== 'other') throw unusable(`This file is not a CSV text file: it is ${DESCRIBE[content]}.`);
      return; // whether it is really text is decided while decoding
  }
}
