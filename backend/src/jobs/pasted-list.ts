// A pasted or scanned list of ISBNs → what an upload's parser gives (ParsedUpload), so the job is
// written, reported and its rejections downloaded exactly as for a file.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { clipRejectedValue } from '@app/domain/bounded-rejections';
import { PastedListReader, pastedLines, pastedListProblem, splitPastedLine, type PastedCode } from '@app/domain/isbn-list';
import { HttpError, validationError } from '../lib/http-errors.ts';
import type { ParsedUpload } from '../uploads/index.ts';
import { formatCount } from '../uploads/upload-error.ts';

export interface PastedListLimits {
  /** Lines holding a code (the upload's row limit). */
  maxRows: number;
  /** Unique ISBNs. */
  maxIsbns: number;
  /** Rejected codes kept for the report and the download; the rest are only counted. */
  maxRejectionsKept: number;
}

// The list is read on the request's thread (no spreadsheet to unpack): it gives way to other
// requests every so many codes, so the largest list allowed never stalls the server for long. A
// request needs a few turns to be answered, each behind one chunk: at 5,000 codes a chunk held the
// thread 30–40 ms, and a health check during a 150k paste waited up to ~100 ms (bench big-paste);
// at 1,000 the longest hold is 20–33 ms (150k ISBNs, event-loop delay) and the whole list reads no slower.
const CODES_PER_TURN = 1_000;

export async function readPastedIsbns(text: string, limits: PastedListLimits): Promise<ParsedUpload> {
  // Split a few thousand lines a turn too: 150k lines at once held the thread for 80–140 ms.
  const lineTexts = pastedLines(text);
  const codes: PastedCode[] = [];
  let lines = 0;
  for (const [i, lineText] of lineTexts.entries()) {
    if (i > 0 && i % CODES_PER_TURN === 0) await nextTurn();
    const before = codes.length;
    splitPastedLine(lineText, i + 1, codes);
    if (codes.length > before) lines++;
  }
  if (lines > limits.maxRows) {
    throw new HttpError(
      413,
      `The list has ${formatCount(lines)} lines; the limit is ${formatCount(limits.maxRows)}. Split it into smaller lists.`,
    );
  }

  const reader = new PastedListReader(limits.maxRejectionsKept);
  for (const [i, code] of codes.entries()) {
    if (i > 0 && i % CODES_PER_TURN === 0) await nextTurn();
    reader.add(code);
    if (reader.list.isbns.length > limits.maxIsbns) {
      throw new HttpError(
        413,
        `The list holds more than ${formatCount(limits.maxIsbns)} different ISBNs, which is the limit. Split it into smaller lists.`,
      );
    }
  }
  const problem = pastedListProblem(reader.list);
  if (problem !== null) throw validationError(['body', 'isbns'], problem);

  const { isbns, linesRead, duplicates, rejections, rejectionsNotKept } = reader.list;

  return {
    isbns,
    // A pasted list has no sheet or column; each rejected code is counted (a "cell" of the list).
    report: {
      sheet: '',
      column: '',
      header_row: false,
      rows_read: linesRead,
      isbns_accepted: isbns.length,
      duplicates_merged: duplicates,
      cells_rejected: rejections.length + rejectionsNotKept,
      rejections_not_kept: rejectionsNotKept,
    },
    rejections: rejections.map((r) => ({ sheet: '', row_number: r.line, raw_value: clipRejectedValue(r.raw), reason: r.reason })),
  };
}
