// The thread that runs embedded PGlite for the API (pglite-thread.ts starts it). PGlite executes
// each statement synchronously in WebAssembly, so on the API's own thread a 300 ms statement would be
// 300 ms in which no request, health check or live stream is answered. Here it blocks only this
// thread. Statements arrive one at a time (the API's side keeps transactions whole).
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { must } from '@app/domain/must';
import { migratedPglite } from './pglite-open.ts';
import { errorFields, type OpenRequest, type QueryResult, type Reply, type Request } from './pglite-thread-protocol.ts';

const port = must(parentPort, 'started as a worker thread');
const post = (reply: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

/** drizzle keeps these types as text; its parsers are identity functions, named here by type id. */
const keepRaw = (types: number[]) => Object.fromEntries(types.map((t) => [t, (value: string) => value]));

async function handle(lite: PGlite, listeners: Map<number, () => Promise<void>>, req: Request): Promise<void> {
  switch (req.op) {
    case 'query': {
      const raw = await lite.query(req.sql, req.params, {
        rowMode: req.rowMode,
        parsers: req.rawTypes ? keepRaw(req.rawTypes) : undefined,
      });
      const result: QueryResult = { rows: raw.rows, fields: raw.fields, affectedRows: raw.affectedRows };
      const transfer: ArrayBuffer[] = [];
      if (raw.blob) {
        const bytes = new Uint8Array(await raw.blob.arrayBuffer());
        result.blobBytes = bytes;
        transfer.push(bytes.buffer);
      }
      post({ type: 'reply', id: req.id, ok: true, result }, transfer);
      return;
    }
    case 'exec':
      await lite.exec(req.sql);
      post({ type: 'reply', id: req.id, ok: true });
      return;
    case 'listen': {
      const off = await lite.listen(req.channel, (payload) => post({ type: 'notify', listener: req.listener, payload }));
      listeners.set(req.listener, off);
      post({ type: 'reply', id: req.id, ok: true });
      return;
    }
    case 'unlisten': {
      const off = listeners.get(req.listener);
      listeners.delete(req.listener);
      if (off && !lite.closed) await off();
      post({ type: 'reply', id: req.id, ok: true });
      return;
    }
    case 'close':
      if (!lite.closed) await lite.close();
      post({ type: 'reply', id: req.id, ok: true });
      port.close();
      return;
  }
}

async function run(): Promise<void> {
  const open = workerData as OpenRequest;
  let lite: PGlite;
  try {
    lite = await migratedPglite(open.dataDir, open.snapshot ? new Blob([open.snapshot]) : undefined);
  } catch (err) {
    post({ type: 'failed', error: errorFields(err) });
    return;
  }
  const listeners = new Map<number, () => Promise<void>>();
  // One request at a time, in arrival order: PGlite is one session.
  let chain = Promise.resolve();
  port.on('message', (req: Request) => {
    chain = chain.then(() =>
      handle(lite, listeners, req).catch((err: unknown) => post({ type: 'reply', id: req.id, ok: false, error: errorFields(err) })),
    );
  });
  post({ type: 'ready' });
}

await run();
