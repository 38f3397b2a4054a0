// Creating a job from an upload: parse and clean the sheet, then in ONE transaction write the job,
// one queued lookup row per accepted ISBN per enabled source and the rejected cells. Rows go in
// with `INSERT … SELECT unnest($array)`: one statement per table, no per-row round trips.
// A failed upload (parse error or database error) leaves no job and no rows behind.
import path from 'node:path';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { Database } from '../db/client.ts';
import { HttpError } from '../lib/http-errors.ts';
import { parseUploadOffThread, UploadError, type ParsedUpload } from '../uploads/index.ts';
import type { UserRow } from '../users/schemas.ts';
import type { JobConfigInput } from './schemas.ts';
import type { JobRow } from './repository.ts';
import { must } from '@app/domain/must';

export interface UploadLimits {
  maxRows: number;
  maxIsbns: number;
  maxUncompressedBytes: number;
  /** Heap of the thread that reads the file. */
  maxParseMemoryMb: number;
}

export const REJECTIONS_IN_RESPONSE = 100;

export async function parseOrExplain(data: Buffer, filename: string, limits: UploadLimits): Promise<ParsedUpload> {
  try {
    return await parseUploadOffThread(data, filename, limits, limits.maxParseMemoryMb);
  } catch (err) {
    if (err instanceof UploadError) throw new HttpError(err.status, err.message);
    throw err;
  }
}

/** A cell as PostgreSQL text can hold it: NUL (which a spreadsheet can carry) shown as U+FFFD. */
const storable = (text: string) => text.replace(/\0/g, '\uFFFD');

/**
 * The report and rejected cells with every NUL (which a spreadsheet cell or sheet name can carry)
 * as U+FFFD: PostgreSQL text and jsonb cannot hold NUL. An escaped backslash before "u0000" is text.
 */
function readableWithoutNul(parsed: ParsedUpload): ParsedUpload {
  const json = JSON.stringify({ report: parsed.report, rejections: parsed.rejections });
  if (!json.includes('\\u0000')) return parsed;
  const clean = JSON.parse(json.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd')) as Pick<ParsedUpload, 'report' | 'rejections'>;
  return { ...parsed, ...clean };
}

/** Keeps the name a user recognises, without any client path, within the column's size. */
export function cleanFilename(name: string): string {
  const base = storable(path.basename(name.replace(/\\/g, '/'))).trim();
  return (base || 'upload').slice(0, 255);
}

export async function createJob(db: Database, owner: Pick<UserRow, 'id'>, config: JobConfigInput, file: { filename: string; data: Buffer }, limits: UploadLimits) {
  const parsed = readableWithoutNul(await parseOrExplain(file.data, file.filename, limits));
  const filename = cleanFilename(file.filename);
  const job = await db.transaction(async (tx) => {
    const { rows } = await tx.query<JobRow>(
      `INSERT INTO jobs (name, input_filename, owner_id, abe_books, biblio, alibris, pallet_iq, ingest_report)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [config.name, filename, owner.id, config.abe_books, config.biblio, config.alibris, config.pallet_iq, JSON.stringify(parsed.report)],
    );
    const created = must(rows[0], 'INSERT … RETURNING gives the job');
    const sources = MARKETPLACE_LIST.filter((m) => config[m.id]);
    for (const m of sources) {
      await tx.query(`INSERT INTO ${m.table} (isbn_lookup_job_id, isbn, input_filename) SELECT $1, unnest($2::text[]), $3`, [
        created.id,
        parsed.isbns,
        filename,
      ]);
    }
    // The job's progress counters start here; the worker moves them on (jobs/progress.ts).
    await tx.query(`INSERT INTO job_progress (job_id, source, total) SELECT $1, unnest($2::text[]), $3`, [
      created.id,
      sources.map((m) => m.id),
      parsed.isbns.length,
    ]);
    if (parsed.rejections.length) {
      const r = parsed.rejections;
      await tx.query(
        `INSERT INTO job_rejections (job_id, sheet, row_number, raw_value, reason)
         SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[])`,
        [created.id, r.map((x) => x.sheet), r.map((x) => x.row_number), r.map((x) => x.raw_value.slice(0, 1000)), r.map((x) => x.reason)],
      );
    }
    return created;
  });
  return { job, parsed };
}
