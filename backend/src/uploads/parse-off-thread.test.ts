import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { parseUpload } from './parse-upload.ts';
import { parseUploadOffThread } from './parse-off-thread.ts';
import { UploadError } from './upload-error.ts';

const limits = {
  maxRows: 500_000,
  maxIsbns: 500_000,
  maxUncompressedBytes: 500_000_000,
  maxRejectionsKept: 10_000,
  maxCells: 5_000_000,
  maxXlsBytes: 50_000_000,
};
const fixture = (name: string) => readFileSync(new URL(`../../test/fixtures/uploads/${name}`, import.meta.url));

describe('parsing on a worker thread', () => {
  it('gives the same answer as parsing in place', async () => {
    const data = fixture('mixed.xlsx');
    expect(await parseUploadOffThread(data, 'mixed.xlsx', limits, 512)).toEqual(parseUpload(data, 'mixed.xlsx', limits));
  });

  it('brings the user-facing error back with its status', async () => {
    const err = await parseUploadOffThread(fixture('no-isbn.xlsx'), 'no-isbn.xlsx', limits, 512).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect((err as UploadError).status).toBe(422);
    expect((err as UploadError).message).toMatch(/No ISBN column found/);
  });

  it('reads uploads one after another, at once and under another heap limit (the thread started ahead is used once)', async () => {
    const data = fixture('mixed.xlsx');
    const expected = parseUpload(data, 'mixed.xlsx', limits);
    for (let i = 0; i < 3; i++) expect(await parseUploadOffThread(data, 'mixed.xlsx', limits, 512)).toEqual(expected);
    const together = await Promise.all([0, 1, 2].map(() => parseUploadOffThread(data, 'mixed.xlsx', limits, 512)));
    for (const result of together) expect(result).toEqual(expected);
    expect(await parseUploadOffThread(data, 'mixed.xlsx', limits, 256)).toEqual(expected);
    const err = await parseUploadOffThread(fixture('no-isbn.xlsx'), 'no-isbn.xlsx', limits, 256).catch((e: unknown) => e);
    expect((err as UploadError).status).toBe(422);
    expect(await parseUploadOffThread(data, 'mixed.xlsx', limits, 256)).toEqual(expected);
  });

  it('refuses a file that needs more memory than the thread may use, and the app lives on', async () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => [`978${String(i).padStart(10, '0')}`, 'x'.repeat(40)]);
    const ws = XLSX.utils.aoa_to_sheet([['ISBN', 'Note'], ...rows]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Big');
    const big = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
    const err = await parseUploadOffThread(big, 'big.xlsx', limits, 16).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect((err as UploadError).status).toBe(413);
    expect((err as UploadError).message).toMatch(/more memory/);
  }, 60_000);
});
