// The body of the parsing thread: parse one upload and post the result (or the user-facing error) back.
import { parentPort, workerData } from 'node:worker_threads';
import { parseUpload, type UploadLimits } from './parse-upload.ts';
import { UploadError } from './upload-error.ts';

const { data, filename, limits } = workerData as { data: Uint8Array; filename: string; limits: UploadLimits };
try {
  const result = parseUpload(Buffer.from(data.buffer, data.byteOffset, data.byteLength), filename, limits);
  parentPort!.postMessage({ ok: true, result });
} catch (err) {
  if (!(err instanceof UploadError)) throw err; // reaches the parent as the worker's 'error' event
  parentPort!.postMessage({ ok: false, status: err.status, message: err.message });
}
