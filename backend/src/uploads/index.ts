// Spreadsheet ingestion: parseUpload and the error it throws.
export { parseUpload, type ParsedUpload, type UploadLimits, type UploadReport } from './parse-upload.ts';
export type { UploadRejection } from './collect-isbns.ts';
export { UploadError, type UploadErrorStatus } from './upload-error.ts';
export { MAX_ZIP_ENTRIES } from './zip-guard.ts';
export { parseUploadOffThread } from './parse-off-thread.ts';
export { uploadLimits, type UploadLimitsWithHeap } from './limits.ts';
