// A process's memory as Linux counts it (/proc/<pid>/status), for the benches: the resident set now
// (VmRSS) and its high-water mark (VmHWM), which belongs to that process alone.
import { readFileSync } from 'node:fs';

function statusBytes(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number {
  const kb = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1];
  return Number(kb ?? 0) * 1024;
}

/** Resident memory of process `pid` now, in bytes. */
export const rssOf = (pid: number | 'self') => statusBytes(pid, 'VmRSS');

/** Peak resident memory of process `pid` so far, in bytes. */
export const peakRssOf = (pid: number | 'self') => statusBytes(pid, 'VmHWM');

/** This process's own peak resident memory, in bytes. */
export const ownPeakRss = () => peakRssOf('self');
