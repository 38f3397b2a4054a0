// The body of the parsing thread: wait for one upload (parse-off-thread.ts starts the thread ahead,
// its modules loaded), parse it and post the result (or the user-facing error) back.
import { parentPort } from 'node:worker_threads';
import { parseUpload, type UploadLimits } from './parse-upload.ts';
import { UploadError } from './upload-error.ts';
import { must } from '@app/domain/must';

const port = must(parentPort, 'parse-worker.ts runs on a worker thread');
port.once('message', ({ data, filename, limits }: { data: Uint8Array; filename: string; limits: UploadLimits }) => {
  try {
    const result = parseUpload(Buffer.from(data.buffer, data.byteOffset, data.byteLength), filename, limits);
    port.postMessage({ ok: true, result });
  } catch (err) {
    if (!(err instanceof UploadError)) throw err; // reaches the parent as the worker's 'error' event
    port.postMessage({ ok: false, status: err.status, message: err.message });
  }
});
