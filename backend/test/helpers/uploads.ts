// What the upload parser's unit tests share: the fixture folder, roomy limits, and catching the parser's own error.
import type { UploadLimits } from '../../src/uploads/parse-upload.ts';
import { UploadError } from '../../src/uploads/upload-error.ts';

export const UPLOAD_FIXTURES = new URL('../fixtures/uploads/', import.meta.url);

/** Limits no fixture comes near, so a test sets only the one it is about. */
export const ROOMY_UPLOAD_LIMITS: UploadLimits = {
  maxRows: 1000,
  maxIsbns: 1000,
  maxUncompressedBytes: 10_000_000,
  maxRejectionsKept: 1000,
  maxCells: 100_000,
  maxXlsBytes: 10_000_000,
};

/** Runs `fn` and returns the UploadError it throws; any other outcome fails the test. */
export function uploadError(fn: () => unknown): UploadError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UploadError) return err;
    throw err;
  }
  throw new Error('expected an UploadError');
}
