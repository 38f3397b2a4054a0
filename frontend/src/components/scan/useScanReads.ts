// Every code the page was given, read and kept newest first: a camera or scanner read through the
// Bookland EAN rules (and counted once while the same code keeps coming), a typed one as the header
// search reads it (an ISBN-10 typed from the copyright page is fine there).
import { readOneIsbn } from '@app/domain/book';
import { countRead, readScannedCode, type ScanRead, type SeenCodes } from '@app/domain/scan-code';
import { useCallback, useRef, useState } from 'react';

export type ScanSource = 'camera' | 'scanner' | 'typed';

export interface ScanEntry {
  id: number;
  source: ScanSource;
  raw: string;
  read: ScanRead;
}

/** Reads kept on the page; a pile of books is read one at a time, only the last few matter here. */
const KEPT = 50;

export function useScanReads(onEntry?: (entry: ScanEntry) => void) {
  const [entries, setEntries] = useState<ScanEntry[]>([]);
  const seen = useRef<SeenCodes>(new Map());
  const nextId = useRef(1);

  const add = useCallback(
    (text: string, source: ScanSource, format?: string) => {
      const read = source === 'typed' ? readOneIsbn(text) : readScannedCode(text, format);
      if (source !== 'typed') {
        const counted = countRead(seen.current, 'isbn' in read ? read.isbn : text.trim(), performance.now());
        seen.current = counted.seen;
        if (!counted.counts) return;
      }
      const entry: ScanEntry = { id: nextId.current++, source, raw: text.trim(), read };
      setEntries((list) => [entry, ...list].slice(0, KEPT));
      onEntry?.(entry);
    },
    [onEntry],
  );

  return { entries, add };
}
