// The scan page's offline side: the pack kept in IndexedDB (downloaded whole, then brought up to
// date by delta), judging a scan from it, and the scans made without a signal, sent once each when
// the signal returns (on the `online` event and when the page opens). A scan is sent under the id
// made on the phone, so one sent again (a retry, an upload cut halfway) joins the session once.
import { OFFLINE_PACK_FORMAT, mergeFiguresPack, mergeVerdictPack, type OfflinePack } from '@app/domain/offline-pack';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { readOfflinePack } from '../../client/sdk.gen';
import { gotNoAnswer } from '../../lib/errors';
import { type JudgeWith, judgeOffline } from './offline-judge';
import {
  type KeptPack,
  type QueuedScan,
  dropQueued,
  enqueueScan,
  keepPack,
  queuedScans,
  readKeptPack,
  registerServiceWorker,
} from '../../lib/offline-store';

/** A delta merged into the pack kept; a whole pack (or one of another kind) replaces it. */
function merged(kept: KeptPack | undefined, pack: OfflinePack, bytes: number): KeptPack {
  const saved_at = new Date().toISOString();
  if (!kept || !pack.delta || kept.pack.kind !== pack.kind || kept.pack.format !== pack.format) return { pack, bytes, saved_at };
  const next =
    pack.kind === 'figures' && kept.pack.kind === 'figures'
      ? mergeFiguresPack(kept.pack, pack)
      : mergeVerdictPack(kept.pack as never, pack as never);
  return { pack: next, bytes: kept.bytes + bytes, saved_at };
}

/** One sync at a time in this page: the `online` event and the page's opening may come together. */
let syncing: Promise<void> | null = null;

/**
 * `send` posts one waiting scan and resolves once the server has it; a network failure (no status)
 * stops the sync for the next signal, and a refusal (a status) drops the scan, since sending it again
 * would be refused again.
 */
async function sendQueue(send: (q: QueuedScan) => Promise<void>, onRefused: (q: QueuedScan, err: unknown) => void) {
  for (const q of await queuedScans()) {
    try {
      await send(q);
    } catch (err) {
      if (gotNoAnswer(err)) return;
      onRefused(q, err);
    }
    await dropQueued(q.client_id);
  }
}

export function useOfflinePack(opts: { send: (q: QueuedScan) => Promise<void>; onRefused: (q: QueuedScan, err: unknown) => void }) {
  const [kept, setKept] = useState<KeptPack>();
  const [waiting, setWaiting] = useState(0);
  const options = useRef(opts);
  options.current = opts;

  const countQueue = useCallback(async () => setWaiting((await queuedScans()).length), []);

  const sync = useCallback(async () => {
    if (!navigator.onLine) return;
    syncing ??= sendQueue(
      (q) => options.current.send(q),
      (q, err) => options.current.onRefused(q, err),
    ).finally(() => {
      syncing = null;
    });
    await syncing;
    await countQueue();
  }, [countQueue]);

  useEffect(() => {
    registerServiceWorker();
    void readKeptPack().then(setKept);
    void countQueue().then(sync);
    const online = () => void sync();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [countQueue, sync]);

  const download = useMutation({
    mutationFn: async () => {
      const current = await readKeptPack();
      // A pack kept in an older format is downloaded again whole (its columns differ).
      const since = current?.pack.format === OFFLINE_PACK_FORMAT ? current.pack.version : undefined;
      const { data, response } = await readOfflinePack({ query: since ? { since } : {} });
      const pack = data as OfflinePack;
      // What came over the wire (gzipped); a response without a length counts its text.
      const bytes = Number(response.headers.get('content-length')) || JSON.stringify(pack).length;
      const next = merged(current, pack, bytes);
      await keepPack(next);
      return next;
    },
    onSuccess: setKept,
    // The panel says why it failed (no signal, and the pack on the phone still used), not a toast.
    meta: { toastOnError: false },
  });

  const judge = useCallback((isbn: string, w: JudgeWith) => (kept ? judgeOffline(kept.pack, isbn, w) : undefined), [kept]);

  const enqueue = useCallback(
    async (q: QueuedScan) => {
      await enqueueScan(q);
      await countQueue();
    },
    [countQueue],
  );

  return { kept, waiting, download, judge, enqueue, sync };
}
