// The body of the parsing thread: parse one upload and post the result (or the user-facing error) back.
import { parentPort, workerData } from 'node:worker_threads';
import { parseUpload, type UploadLimits } from './parse-upload.ts';
import { UploadError } from './upload-error.ts';
import { must } from '@app/domain/must';

const port = must(parentPort, 'parse-worker.ts runs on a worker thread');
const { data, filename, limits } = workerData as { data: Uint8Array; filename: string; limits: UploadLimits };
try {
  const result = parseUpload(Buffer.from(data.buffer, data.byteOffset, data.byteLength), filename, limits);
  port.postMessage({ ok: true, result });
} catch (err) {
  if (!(err instanceof UploadError)) throw err; // reaches the parent as the worker's 'error' event
  port.postMessage({ ok: false, status: err.status, message: err.message });
}
