// parseUpload on a worker thread: a big workbook takes a second or two of CPU, which would otherwise
// stall every other request and the in-process lookup worker. One thread per upload, with a heap
// limit, so a hostile file can exhaust only that thread's memory and its memory is freed after.
//
// The thread for the next upload is started ahead, once an upload has been read: starting a thread
// and loading the parser's modules (SheetJS, htmlparser2, fflate) took ~140 ms of every upload on a
// quiet 2-core machine and 600–900 ms at load 8 (the browser tests' 39 uploads: 32 s of requests).
// The spare waits, its modules loaded, for the one file it will read; it is still used once and ended.
import { Worker } from 'node:worker_threads';
import type { ParsedUpload, UploadLimits } from './parse-upload.ts';
import { UploadError, type UploadErrorStatus } from './upload-error.ts';

const ENTRY = new URL('./parse-worker-entry.mjs', import.meta.url);

type Reply = { ok: true; result: ParsedUpload } | { ok: false; status: UploadErrorStatus; message: string };

/** A started thread not yet given a file, and the heap limit it was started with. */
let spare: { worker: Worker; maxMemoryMb: number } | undefined;

function startThread(maxMemoryMb: number): Worker {
  const worker = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb } });
  // A waiting spare does not keep the process alive; one given a file does (take()).
  worker.unref();
  return worker;
}

/** Starts the spare for the next upload, unless one with this heap limit is waiting. */
function prepareSpare(maxMemoryMb: number): void {
  if (spare?.maxMemoryMb === maxMemoryMb) return;
  void spare?.worker.terminate();
  const worker = startThread(maxMemoryMb);
  const entry = { worker, maxMemoryMb };
  spare = entry;
  // A spare that fails or stops before it is used is dropped; the next upload starts its own.
  const drop = () => {
    if (spare === entry) spare = undefined;
  };
  worker.once('error', drop);
  worker.once('exit', drop);
}

/** The spare if it has this heap limit (it may still be loading: its messages wait), else a new thread. */
function take(maxMemoryMb: number): Worker {
  const ready = spare?.maxMemoryMb === maxMemoryMb ? spare.worker : undefined;
  if (ready) spare = undefined;
  const worker = ready ?? startThread(maxMemoryMb);
  worker.ref();
  return worker;
}

export function parseUploadOffThread(data: Buffer, filename: string, limits: UploadLimits, maxMemoryMb: number): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    const worker = take(maxMemoryMb);
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
      prepareSpare(maxMemoryMb);
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
    // A copy the thread can own; the request's buffer stays valid for the caller.
    const copy = new Uint8Array(data);
    worker.postMessage({ data: copy, filename, limits }, [copy.buffer]);
  });
}
