// Ingest of a 100k-ISBN .xlsx with all four sources (400k lookup rows), on PGlite and PostgreSQL:
// time to a created job beside parsing alone plus a bare bulk insert of the same rows.
// Target: ingest ≤ 1.5 × (parse + bare insert).
import * as XLSX from '@e965/xlsx';
import { MARKETPLACE_LIST, byMarketplace } from '@app/domain/marketplaces';
import { param, sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../src/db/client.ts';
import { readUploadedFile, storeJob } from '../src/jobs/ingest.ts';
import type { UserRow } from '../src/users/schemas.ts';
import { parseUpload } from '../src/uploads/index.ts';
import { bigUploadIsbn } from '../test/helpers/big-upload.ts';
import { benchPostgres, report, timed } from './lib.ts';

const ISBN_COUNT = 100_000;
const limits = {
  maxRows: 200_000,
  maxIsbns: 200_000,
  maxUncompressedBytes: 500 * 1024 * 1024,
  maxRejectionsKept: 10_000,
  maxCells: 3_000_000,
  maxXlsBytes: 4 * 1024 * 1024,
  maxParseMemoryMb: 256,
};

/** 100k distinct valid ISBN-13s as numeric cells, the way Excel stores them. */
export function makeWorkbook(count = ISBN_COUNT): Buffer {
  const rows: (string | number)[][] = [['ISBN', 'Title']];
  for (let i = 0; i < count; i++) {
    rows.push([Number(bigUploadIsbn(i)), `Book ${i}`]);
  }
  const ws = XLSX.utils.aoa_to_sheet(rows);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'Books');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

async function seedUser(db: Db): Promise<{ id: string; is_superuser: boolean }> {
  const { rows } = await db.execute<{ id: string }>(
    sql`INSERT INTO users (email, hashed_password) VALUES ('bench@example.com', 'x') RETURNING id`,
  );
  return { id: rows[0]!.id, is_superuser: false };
}

async function bareInsert(db: Db, ownerId: string, isbns: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: number }>(
      sql`INSERT INTO jobs (name, input_filename, owner_id) VALUES ('bare', 'bare.xlsx', ${ownerId}) RETURNING id`,
    );
    for (const m of MARKETPLACE_LIST) {
      await tx.execute(
        sql`INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn, input_filename) SELECT ${rows[0]!.id}, unnest(${param(isbns)}::text[]), ${'bare.xlsx'}`,
      );
    }
  });
}

export async function benchIngest(): Promise<void> {
  const file = makeWorkbook();
  const parse = await timed(() => parseUpload(file, 'books.xlsx', limits));
  if (parse.value.isbns.length !== ISBN_COUNT) throw new Error(`parsed ${parse.value.isbns.length} ISBNs, expected ${ISBN_COUNT}`);
  report({ name: 'ingest: parse 100k-ISBN .xlsx', value: `${parse.ms.toFixed(0)} ms (${(file.length / 1024).toFixed(0)} KiB file)` });

  const pgDb = await benchPostgres();
  try {
    for (const engine of ['pglite', 'postgres'] as const) {
      const database = await openDatabase(engine === 'pglite' ? {} : { url: pgDb.url });
      const db = database.db;
      try {
        const user = await seedUser(db);
        const bare = await timed(() => bareInsert(db, user.id, parse.value.isbns));
        await db.execute(sql`TRUNCATE jobs CASCADE`);
        // storeJob reads only the owner's id off the user row.
        const full = await timed(async () => {
          const { filename, parsed } = await readUploadedFile({ filename: 'books.xlsx', data: file }, limits);
          return storeJob(db, user as UserRow, { name: 'bench', ...byMarketplace(() => true) }, filename, parsed);
        });
        const counts = sql.join(
          MARKETPLACE_LIST.map((m) => sql`(SELECT count(*) FROM ${sql.identifier(m.table)})`),
          sql` + `,
        );
        const { rows } = await db.execute<{ n: number }>(sql`SELECT ${counts} AS n`);
        if (Number(rows[0]!.n) !== MARKETPLACE_LIST.length * ISBN_COUNT) throw new Error(`ingest wrote ${rows[0]!.n} lookup rows`);
        const ratio = full.ms / (parse.ms + bare.ms);
        report({ name: `ingest on ${engine}: bare insert of 400k lookup rows`, value: `${bare.ms.toFixed(0)} ms` });
        report({
          name: `ingest on ${engine}: upload → created job (400k rows)`,
          value: `${full.ms.toFixed(0)} ms vs parse + bare insert ${(parse.ms + bare.ms).toFixed(0)} ms`,
          ratio,
          target: '≤ 1.5',
          ok: ratio <= 1.5,
        });
      } finally {
        await database.close();
      }
    }
  } finally {
    await pgDb.cleanup();
  }
}
