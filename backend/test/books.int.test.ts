// A book's page through the HTTP API on one engine: every form of an ISBN, 422s naming `isbn`,
// title and author, each marketplace's latest answer with its offers (from the price history, else
// the latest lookup row), the price series, the jobs that included the book (the caller's own only;
// superusers all), and "Price it now" making a one-book job the worker prices.
import { BOOK_PAGE_FILENAME, bookJobName } from '@app/domain/book';
import { ISBN_REJECTION as R } from '@app/domain/isbn';
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { ADMIN, bearer, createUser, login, startTestApp, type TestApp } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';
import { lookupRows, runSandboxWorkerToIdle } from './helpers/worker.ts';

const ISBN = '9780306406157';
const ISBN10 = '0306406152';
/** On no job and in no observation. */
const UNSEEN = '9780131457577';

const offer = (price: string, seller: string) => ({ totalListingPrice: price, vendorName: seller, itemCondition: 'Good' });

// Engine-neutral (ONE_ENGINE says why): the same statements through the query builder on both engines.
describe.each(ONE_ENGINE)('book page on %s', (engine) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let nobody: { id: string; token: string };
  let admin = '';
  let ownerJob = 0;
  let otherJob = 0;

  const get = (url: string, token: string | null) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: token ? bearer(token) : {} });
  const post = (url: string, token: string | null, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
  const exec = (q: ReturnType<typeof sql>) => t.ctx.db.execute(q);

  /** Runs a worker against a sandbox (every ISBN has offers) until nothing is queued. */
  const runWorker = () => runSandboxWorkerToIdle(t.ctx.db);

  async function insertJob(ownerId: string, name: string, minutesAgo: number): Promise<number> {
    const { rows } = await t.ctx.db.execute<{ id: number }>(
      sql`INSERT INTO jobs (name, input_filename, owner_id, abe_books, biblio, alibris, created_at)
          VALUES (${name}, 'in.csv', ${ownerId}, true, true, true, now() - ${minutesAgo}::int * interval '1 minute') RETURNING id`,
    );
    return rows[0]!.id;
  }

  const observe = (
    marketplace: string,
    hoursAgo: number,
    price: number | null,
    offerCount: number,
    offers: unknown[] | null,
    status = 'completed',
  ) =>
    exec(sql`INSERT INTO price_observations (marketplace, isbn, observed_at, status, price, currency, offer_count, offers)
             VALUES (${marketplace}, ${ISBN}, now() - ${hoursAgo}::int * interval '1 hour', ${status}, ${price},
                     ${price === null ? null : 'USD'}, ${offerCount}, ${offers === null ? null : JSON.stringify(offers)}::jsonb)`);

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await createUser(t, 'book-owner@example.com');
    other = await createUser(t, 'book-other@example.com');
    nobody = await createUser(t, 'book-nobody@example.com');
    admin = await login(t.app, ADMIN.email, ADMIN.password);

    ownerJob = await insertJob(owner.id, 'Owner shelf', 30);
    otherJob = await insertJob(other.id, 'Other shelf', 10);
    // A job of the owner's without the book: never listed on its page.
    const unrelated = await insertJob(owner.id, 'Unrelated', 5);
    await exec(
      sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, lookup_status) VALUES (${unrelated}, ${UNSEEN.replace('77', '78')}, 'failed')`,
    );

    // AbeBooks: an answer in the owner's job (title, author) and two observations, the latest with
    // the same offers as before (stored as null).
    await exec(sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, lookup_status, answered_at, title, author, total_listing_price, offer_count, offers)
                   VALUES (${ownerJob}, ${ISBN}, 'completed', now() - interval '1 hour', 'Quantum Mechanics', 'Someone, A.', 10, 2,
                           ${JSON.stringify([offer('10.00', 'Shop A'), offer('14.50', 'Shop B')])}::jsonb)`);
    await observe('abe_books', 3, 12, 2, [offer('12.00', 'Shop A'), offer('14.50', 'Shop B')]);
    await observe('abe_books', 2, 11, 2, [offer('11.00', 'Shop A'), offer('14.50', 'Shop B')]);
    await observe('abe_books', 1, 10, 2, null);
    // Biblio: an answer in euros with shipping apart and no observation: the lookup row is the answer.
    await exec(sql`INSERT INTO biblio_price_lookups (isbn_lookup_job_id, isbn, lookup_status, answered_at, price, shipping_price, currency, offer_count, offers)
                   VALUES (${ownerJob}, ${ISBN}, 'completed', now() - interval '2 hours', 15, 1, 'eur', 1,
                           ${JSON.stringify([{ price: 15, shipping_price: 1, currency: 'EUR', seller: 'Libreria' }])}::jsonb)`);
    // A failed Biblio lookup later is not an answer.
    await exec(
      sql`INSERT INTO biblio_price_lookups (isbn_lookup_job_id, isbn, lookup_status, last_error) VALUES (${otherJob}, ${ISBN}, 'failed', 'HTTP 500')`,
    );
    // Alibris: asked in the other user's job only; no offers now, one before.
    await exec(sql`INSERT INTO alibris_price_lookups (isbn_lookup_job_id, isbn, lookup_status, answered_at, offer_count, offers)
                   VALUES (${otherJob}, ${ISBN}, 'no_offers_available', now() - interval '1 hour', 0, '[]'::jsonb)`);
    await observe('alibris', 5, 9, 1, [{ price: '9.00', sellername: 'Pico' }]);
    await observe('alibris', 1, null, 0, [], 'no_offers_available');
  });
  afterAll(() => t.close());

  it('reads the book from any form of its ISBN', async () => {
    for (const form of [ISBN, '978-0-306-40615-7', ISBN10, '0-306-40615-2', `${ISBN} 51299`, `${ISBN}51299`]) {
      const res = await get(`/books/${encodeURIComponent(form)}`, owner.token);
      expect(res.statusCode, `${form}: ${res.body}`).toBe(200);
      expect(res.json(), form).toMatchObject({ isbn: ISBN, isbn10: ISBN10 });
    }
    // A 979 ISBN has no ISBN-10.
    expect((await get('/books/9791234567896', owner.token)).json()).toMatchObject({ isbn: '9791234567896', isbn10: null });
  });

  it("refuses what is not an ISBN with 422 naming isbn and the normaliser's reason, on every route", async () => {
    const cases: [string, string][] = [
      ['hello', R.notAnIsbn],
      ['9780306406158', R.isbn13Check],
      ['0306406153', R.isbn10Check],
      ['036000291452', R.upc],
      ['978030640615', R.truncated],
      ['9780306406157,9780131457577', 'More than one ISBN: enter one.'],
    ];
    for (const [text, reason] of cases) {
      for (const res of [
        await get(`/books/${encodeURIComponent(text)}`, owner.token),
        await get(`/books/${encodeURIComponent(text)}/history`, owner.token),
        await post(`/books/${encodeURIComponent(text)}/price`, owner.token, {}),
      ]) {
        expect(res.statusCode, `${text}: ${res.body}`).toBe(422);
        expect(res.json().detail[0], text).toMatchObject({ loc: ['path', 'isbn'], msg: reason });
      }
    }
  });

  it("gives the title, the author and each marketplace's latest answer with all its offers", async () => {
    const book = (await get(`/books/${ISBN}`, owner.token)).json();
    expect(book).toMatchObject({ title: 'Quantum Mechanics', author: 'Someone, A.' });
    expect(book.marketplaces.map((m: { marketplace: string }) => m.marketplace)).toEqual(MARKETPLACE_IDS);
    const latest = Object.fromEntries(book.marketplaces.map((m: { marketplace: string; latest: unknown }) => [m.marketplace, m.latest]));
    // The latest observation; its offers unchanged since the one before, so read from there.
    expect(latest.abe_books).toMatchObject({ status: 'completed', price: 10, currency: 'USD', offer_count: 2 });
    expect(latest.abe_books.offers).toEqual([offer('11.00', 'Shop A'), offer('14.50', 'Shop B')]);
    // Summarised by AbeBooks' normaliser (abebooks/offers.ts): the total is the delivered price.
    const abeSummary = (value: number, seller: string) => ({
      price: null,
      shipping: null,
      delivered: { value, currency: 'USD' },
      condition: 'Good',
      seller,
      link: null,
    });
    expect(latest.abe_books.summaries).toEqual([abeSummary(11, 'Shop A'), abeSummary(14.5, 'Shop B')]);
    expect(new Date(latest.abe_books.observed_at).getTime()).toBeLessThan(Date.now() - 59 * 60_000);
    // No observation: the latest answered lookup row, its price with shipping in its currency.
    expect(latest.biblio).toMatchObject({ status: 'completed', price: 16, currency: 'EUR', offer_count: 1 });
    expect(latest.biblio.offers).toEqual([{ price: 15, shipping_price: 1, currency: 'EUR', seller: 'Libreria' }]);
    expect(latest.biblio.summaries).toEqual([
      {
        price: { value: 15, currency: 'EUR' },
        shipping: { value: 1, currency: 'EUR' },
        delivered: { value: 16, currency: 'EUR' },
        condition: null,
        seller: 'Libreria',
        link: null,
      },
    ]);
    // Market data is shared: the other user's answer shows on the owner's page; its latest had no offers.
    expect(latest.alibris).toMatchObject({ status: 'no_offers_available', price: null, offer_count: 0, offers: [], summaries: null });
    expect(latest.pallet_iq).toBeNull();
  });

  it('says nothing is known of a book never looked up', async () => {
    const res = await get(`/books/${UNSEEN}`, owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      isbn: UNSEEN,
      isbn10: '0131457578',
      title: null,
      author: null,
      details: null,
      marketplaces: MARKETPLACE_IDS.map((marketplace) => ({ marketplace, latest: null })),
      jobs: [],
      jobs_truncated: false,
    });
  });

  it('gives the price series per marketplace, oldest first', async () => {
    const res = await get(`/books/${ISBN10}/history`, nobody.token);
    expect(res.statusCode).toBe(200);
    const series = Object.fromEntries(
      res
        .json()
        .series.map((s: { marketplace: string; points: { price: number | null; status: string; offer_count: number }[] }) => [
          s.marketplace,
          s.points.map((p) => [p.price, p.status, p.offer_count]),
        ]),
    );
    expect(series).toEqual({
      abe_books: [
        [12, 'completed', 2],
        [11, 'completed', 2],
        [10, 'completed', 2],
      ],
      biblio: [],
      alibris: [
        [9, 'completed', 1],
        [null, 'no_offers_available', 0],
      ],
      pallet_iq: [],
      amazon: [],
      ebay: [],
    });
  });

  it('lists only the jobs the caller may see, newest first; anonymous callers get 401', async () => {
    const jobsOf = async (token: string) =>
      (await get(`/books/${ISBN}`, token))
        .json()
        .jobs.map((j: { id: number; name: string; marketplaces: string[] }) => [j.id, j.name, j.marketplaces]);
    expect(await jobsOf(owner.token)).toEqual([[ownerJob, 'Owner shelf', ['abe_books', 'biblio']]]);
    expect(await jobsOf(other.token)).toEqual([[otherJob, 'Other shelf', ['biblio', 'alibris']]]);
    expect(await jobsOf(nobody.token)).toEqual([]);
    expect(await jobsOf(admin)).toEqual([
      [otherJob, 'Other shelf', ['biblio', 'alibris']],
      [ownerJob, 'Owner shelf', ['abe_books', 'biblio']],
    ]);
    // The market data is the same for everyone.
    const marketOf = async (token: string) => (await get(`/books/${ISBN}`, token)).json().marketplaces;
    expect(await marketOf(nobody.token)).toEqual(await marketOf(owner.token));

    for (const res of [
      await get(`/books/${ISBN}`, null),
      await get(`/books/${ISBN}/history`, null),
      await post(`/books/${ISBN}/price`, null, {}),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Not authenticated' });
    }
  });

  it('refuses a price request that turns every marketplace off, naming sources', async () => {
    const before = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM jobs`);
    const res = await post(`/books/${UNSEEN}/price`, owner.token, { abe_books: false, biblio: false, alibris: false, pallet_iq: false });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'sources'], msg: 'Choose at least one marketplace' });
    const bad = await post(`/books/${UNSEEN}/price`, owner.token, { abe_books: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'abe_books']);
    const after = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM jobs`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('prices a book again from a recent answer, or asks the marketplaces now when told to (fresh)', async () => {
    const [isbn] = sampleIsbns(1, 9_300) as [string];
    const first = (await post(`/books/${isbn}/price`, nobody.token, { abe_books: true })).json();
    await runWorker();
    const [asked] = await lookupRows(t.ctx.db, 'abe_books', first.id);
    expect(asked).toMatchObject({ lookup_status: 'completed', reused_from: null });

    // Again within the reuse window: filled from that answer, no request.
    const again = await post(`/books/${isbn}/price`, nobody.token, { abe_books: true });
    expect(again.statusCode, again.body).toBe(200);
    await runWorker();
    const [reused] = await lookupRows(t.ctx.db, 'abe_books', again.json().id);
    expect(reused).toMatchObject({ lookup_status: 'completed', reused_from: asked!.id });

    // Fresh: the marketplace is asked again, and that alone names no marketplace (all are asked).
    const fresh = await post(`/books/${isbn}/price`, nobody.token, { abe_books: true, fresh: true });
    expect(fresh.statusCode, fresh.body).toBe(200);
    await runWorker();
    const [askedAgain] = await lookupRows(t.ctx.db, 'abe_books', fresh.json().id);
    expect(askedAgain).toMatchObject({ lookup_status: 'completed', reused_from: null });
    expect(askedAgain!.answered_at!.getTime()).toBeGreaterThan(asked!.answered_at!.getTime());
    const all = await post(`/books/${isbn}/price`, nobody.token, { fresh: true });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toMatchObject({ abe_books: { enabled: true }, pallet_iq: { enabled: true } });
  });

  it('prices a book now: a one-book job of the chosen marketplaces (all by default) that the worker prices', async () => {
    const [isbn] = sampleIsbns(1, 9_100) as [string];
    const res = await post(`/books/${isbn}/price`, nobody.token, { abe_books: true, alibris: true });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json();
    expect(job).toMatchObject({
      name: bookJobName(isbn),
      input_filename: BOOK_PAGE_FILENAME,
      owner_id: nobody.id,
      abe_books: { enabled: true, total_isbns: 1, processed_isbns: 0 },
      biblio: { enabled: false, total_isbns: 0 },
      alibris: { enabled: true, total_isbns: 1 },
      pallet_iq: { enabled: false },
      report: { rows_read: 1, isbns_accepted: 1, cells_rejected: 0 },
      rejections: [],
    });
    expect((await lookupRows(t.ctx.db, 'abe_books', job.id)).map((r) => [r.isbn, r.lookup_status, r.input_filename])).toEqual([
      [isbn, 'queued', BOOK_PAGE_FILENAME],
    ]);
    // The jobs tables leave one-book jobs out when asked (their default); the plain list has them.
    const listed = async (hide?: boolean) =>
      (
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/v1/jobs/jobs',
            headers: bearer(nobody.token),
            payload: { filters: [], hide_book_lookups: hide },
          })
        ).json().data as { id: number }[]
      ).map((j) => j.id);
    expect(await listed()).toContain(job.id);
    expect(await listed(false)).toContain(job.id);
    expect(await listed(true)).not.toContain(job.id);
    // Another user neither sees the job on the book's page nor can open it.
    expect((await get(`/books/${isbn}`, other.token)).json().jobs).toEqual([]);
    expect((await get(`/jobs/${job.id}`, other.token)).statusCode).toBe(404);

    await runWorker();
    const book = (await get(`/books/${isbn}`, nobody.token)).json();
    const latest = Object.fromEntries(book.marketplaces.map((m: { marketplace: string; latest: unknown }) => [m.marketplace, m.latest]));
    for (const m of ['abe_books', 'alibris']) {
      expect(latest[m], m).toMatchObject({ status: 'completed', currency: 'USD' });
      expect(latest[m].price, m).toBeGreaterThan(0);
      expect(latest[m].offers.length, m).toBe(latest[m].offer_count);
      expect(latest[m].offer_count, m).toBeGreaterThan(0);
    }
    expect(latest.biblio).toBeNull();
    expect(latest.pallet_iq).toBeNull();
    expect(book.title).toEqual(expect.any(String));
    expect(book.jobs).toEqual([
      {
        id: job.id,
        name: bookJobName(isbn),
        input_filename: BOOK_PAGE_FILENAME,
        created_at: job.created_at,
        marketplaces: ['abe_books', 'alibris'],
      },
    ]);

    // Re-pricing the job keeps the first answer: two observations per marketplace asked.
    expect((await post(`/jobs/${job.id}/reprice`, nobody.token)).statusCode).toBe(200);
    await runWorker();
    const history = (await get(`/books/${isbn}/history`, nobody.token)).json();
    expect(
      Object.fromEntries(history.series.map((s: { marketplace: string; points: unknown[] }) => [s.marketplace, s.points.length])),
    ).toEqual({
      abe_books: 2,
      biblio: 0,
      alibris: 2,
      pallet_iq: 0,
      amazon: 0,
      ebay: 0,
    });

    // No marketplace named: all of them.
    const all = await post(`/books/${isbn}/price`, nobody.token);
    expect(all.statusCode, all.body).toBe(200);
    for (const m of MARKETPLACE_IDS) expect(all.json()[m], m).toMatchObject({ enabled: true, total_isbns: 1 });
  });
});
