// The upload settings (core/config.ts, uploads section) as the reader and the parse thread take them.
import type { z } from 'zod';
import type { CORE_SECTIONS } from '../core/config.ts';
import type { UploadLimits } from './parse-upload.ts';

export interface UploadLimitsWithHeap extends UploadLimits {
  /** Heap of the thread that reads the file. */
  maxParseMemoryMb: number;
}

export function uploadLimits(config: z.output<typeof CORE_SECTIONS.uploads>): UploadLimitsWithHeap {
  return {
    maxRows: config.UPLOAD_MAX_ROWS,
    maxIsbns: config.UPLOAD_MAX_ISBNS,
    maxUncompressedBytes: config.UPLOAD_MAX_UNCOMPRESSED_BYTES,
    maxRejectionsKept: config.UPLOAD_MAX_REJECTIONS_KEPT,
    maxCells: config.UPLOAD_MAX_CELLS,
    maxXlsBytes: config.UPLOAD_XLS_MAX_BYTES,
    maxParseMemoryMb: config.UPLOAD_PARSE_MAX_MEMORY_MB,
  };
}
