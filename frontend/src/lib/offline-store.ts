// The phone's offline data in IndexedDB (through idb): the offline pack as last downloaded and
// merged, and the scans made without a signal waiting to be sent. Signing out deletes the whole
// database (hooks/useLogout.ts): phones are shared.
import type { OfflinePack } from '@app/domain/offline-pack';
import { type DBSchema, deleteDB, openDB } from 'idb';

export const OFFLINE_DB = 'scan-offline';
/** The service worker's cache of the scan page's opening API answers (src/sw/sw.js API_CACHE). */
export const API_CACHE = 'scan-api';

export interface KeptPack {
  pack: OfflinePack;
  /** Bytes downloaded for it (compressed): the whole pack and the deltas since. */
  bytes: number;
  /** When it was last brought up to date (ISO). */
  saved_at: string;
}

/** A scan made offline: sent once the signal returns, under the id made here (the server joins it once). */
export interface QueuedScan {
  client_id: string;
  code: string;
  /** The session it belongs to; null when none was started yet (the first one sent starts it). */
  session: number | null;
  scanned_at: string;
}

interface OfflineSchema extends DBSchema {
  pack: { key: string; value: KeptPack };
  queue: { key: string; value: QueuedScan; indexes: { by_time: string } };
}

const PACK_KEY = 'current';

function open() {
  return openDB<OfflineSchema>(OFFLINE_DB, 1, {
    upgrade(db) {
      db.createObjectStore('pack');
      db.createObjectStore('queue', { keyPath: 'client_id' }).createIndex('by_time', 'scanned_at');
    },
  });
}

async function withDb<T>(run: (db: Awaited<ReturnType<typeof open>>) => Promise<T>): Promise<T> {
  const db = await open();
  try {
    return await run(db);
  } finally {
    db.close();
  }
}

export const readKeptPack = () => withDb((db) => db.get('pack', PACK_KEY));
export const keepPack = (kept: KeptPack) => withDb((db) => db.put('pack', kept, PACK_KEY).then(() => undefined));
export const enqueueScan = (scan: QueuedScan) => withDb((db) => db.put('queue', scan).then(() => undefined));
/** The waiting scans, oldest first. */
export const queuedScans = () => withDb((db) => db.getAllFromIndex('queue', 'by_time'));
export const dropQueued = (clientId: string) => withDb((db) => db.delete('queue', clientId));

/** Deletes every offline record of this browser (sign-out): the pack, the waiting scans and the kept API answers. */
export async function deleteOfflineData(): Promise<void> {
  if ('caches' in window) await caches.delete(API_CACHE);
  await deleteDB(OFFLINE_DB, {
    // Another tab holding it open would stall the deletion: it resolves once that tab lets go.
    blocked: () => undefined,
  });
}

/** Installs the service worker that keeps /scan, its files and the decoder's .wasm for use without a signal (built apps only). */
export function registerServiceWorker(): void {
  if (import.meta.env.PROD && 'serviceWorker' in navigator) void navigator.serviceWorker.register('/sw.js').catch(() => {});
}
