// parseUpload on a worker thread: a big workbook takes a second or two of CPU, which would otherwise
// stall every other request and the in-process lookup worker. One thread per upload, with a heap
// limit, so a hostile file can exhaust only that thread's memory and its memory is freed after.
import { Worker } from 'node:worker_threads';
import type { ParsedUpload, UploadLimits } from './parse-upload.ts';
import { UploadError, type UploadErrorStatus } from './upload-error.ts';

const ENTRY = new URL('./parse-worker-entry.mjs', import.meta.url);

type Reply = { ok: true; result: ParsedUpload } | { ok: false; status: UploadErrorStatus; message: string };

export function parseUploadOffThread(data: Buffer, filename: string, limits: UploadLimits, maxMemoryMb: number): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    // A copy the thread can own; the request's buffer stays valid for the caller.
    const copy = new Uint8Array(data);
    const worker = new Worker(ENTRY, {
      workerData: { data: copy, filename, limits },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (reply: Reply) =>
      settle(() => (reply.ok ? resolve(reply.result) : reject(new UploadError(reply.status, reply.message)))),
    );
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new UploadError(
                413,
                'This file needs more memory to read than an upload may use. Split it into smaller files and upload them one by one.',
              )
            : err,
        ),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`upload parser stopped unexpectedly (exit code ${code})`))));
  });
}
