// A small workbook describing millions of tiny cells (issue 20: 434 KB, 16 s of CPU and ~2 GB before
// the refusal) is refused at the cell limit with a 413 {detail}, by the default configuration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, login, startTestApp, type TestApp } from './helpers/app.ts';
import { postJobUpload } from './helpers/multipart.ts';
import { tinyCellsWorkbook } from './helpers/zip-writer.ts';

describe('a workbook of millions of tiny cells', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp('pg');
    token = await login(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  it('is refused with 413 at UPLOAD_MAX_CELLS, and the next upload is read as usual', async () => {
    const bomb = tinyCellsWorkbook(4_000_000);
    expect(bomb.length).toBeLessThan(1_000_000);
    const res = await postJobUpload(t.app, token, { name: 'cells', abe_books: true }, { name: 'cells.xlsx', data: bomb });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      detail: `The file has more than ${t.ctx.config.UPLOAD_MAX_CELLS.toLocaleString('en-US')} cells, which is the limit. Delete the columns you do not need, or split it into smaller files.`,
    });
    const next = await postJobUpload(t.app, token, { name: 'next', abe_books: true }, { name: 'isbns.csv', data: 'ISBN\n9780306406157\n' });
    expect(next.statusCode, next.body).toBe(200);
  }, 120_000);
});
