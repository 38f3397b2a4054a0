// The hourly watch digest over real SMTP (a local smtp-server sink): a watch that fired reaches its
// owner's mailbox once, with a one-click stop link per watch and a List-Unsubscribe header (RFC
// 8058); a second digest within the hour is not sent, the next hour's is; a watch with email off is
// left out; the stop link (GET, JSON, the one-click POST) turns the watch's email off and a forged
// one is refused.
import { MARKETPLACES } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/core/mailer.ts';
import { notifications, watchDigests, watches } from '../src/db/schema.ts';
import { sampleIsbns } from '../src/sandbox/isbns.ts';
import { WatchDigest } from '../src/watches/digest.ts';
import { LookupQueue } from '../src/worker/queue.ts';
import { bearer, createUser, silentLogger, startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { ONE_ENGINE } from './helpers/databases.ts';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.ts';

describe.each(ONE_ENGINE)('the watch digest on %s', (engine) => {
  let sink: SmtpSink;
  let received: string[];
  let t: TestApp;
  let digest: WatchDigest;
  let owner: { id: string; token: string };

  beforeAll(async () => {
    sink = await startSmtpSink();
    received = sink.received;
    const port = sink.port;
    const env = { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_TLS: 'false' };
    t = await startTestApp(engine, { captureMail: false, env });
    const config = testConfig(env);
    // The worker's digest, as main.ts builds it: the mailer, the API's secret and its public address.
    digest = new WatchDigest(
      t.ctx.db,
      { mailer: createMailer(config, () => {}), secretKey: config.SECRET_KEY, linkBase: config.FRONTEND_HOST, projectName: 'Books' },
      silentLogger,
    );
    owner = await createUser(t, 'digest-owner@example.com');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

  /** A job of these ISBNs, a watch on each book (best price ≥ 20, email as given), and answers that fire them. */
  async function fire(isbns: string[], email = true): Promise<number[]> {
    const job = await call('POST', '/jobs/from-isbns', owner.token, { name: 'digest', abe_books: true, isbns: isbns.join('\n') });
    expect(job.statusCode, job.body).toBe(200);
    const ids: number[] = [];
    for (const isbn of isbns) {
      const res = await call('POST', '/watches', owner.token, {
        isbn,
        name: `Watch ${isbn.slice(-4)}`,
        email,
        conditions: [{ field: 'best_price', operator: 'gte', value: '20' }],
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().id);
    }
    const abe = new LookupQueue(t.ctx.db, MARKETPLACES.abe_books);
    const claimed = await abe.claim(100, 60_000);
    await abe.finish(
      claimed.map((r) => ({
        id: r.id,
        attempts: r.attempts,
        status: 'completed' as const,
        last_error: null,
        offers: [{}],
        record: { listing_price: 30 },
      })),
    );
    return ids;
  }

  async function mails(n: number): Promise<string[]> {
    for (let i = 0; i < 100 && received.length < n; i++) await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(n);
    // Quoted-printable soft breaks and '=' undone, headers unfolded: what a reader sees.
    return received.map((raw) =>
      raw
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=')
        .replace(/\r?\n[ \t]+/g, ' '),
    );
  }

  it('delivers one digest with a stop link per watch, then none within the hour, then the next one', async () => {
    const base = engine === 'pg' ? 900_000 : 800_000;
    const [a, b] = await fire(sampleIsbns(2, base));
    await fire(sampleIsbns(1, base + 10), false);
    expect(await digest.sweep()).toBe(1);
    const [mail] = await mails(1);
    const raw = must(mail, 'the digest');
    expect(raw).toMatch(/^To: digest-owner@example.com/m);
    expect(raw).toMatch(/^Subject: Books - 2 watch alerts/m);
    expect(raw).toContain('Content-Type: text/html');
    // Each watch's own link, and one header naming both (with the one-click POST).
    const links = [
      ...raw.matchAll(/Stop emails for this watch: (http:\/\/localhost:5173\/api\/v1\/watches\/email-stop\?token=[^\s]+)/g),
    ].map((m) => m[1]);
    expect(links).toHaveLength(2);
    expect(raw).toMatch(/^List-Unsubscribe: <http:\/\/localhost:5173\/api\/v1\/watches\/email-stop\?token=[^>]+>/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    const header = must(raw.match(/^List-Unsubscribe: <([^>]+)>/m)?.[1], 'the header link');
    const emailed = await t.ctx.db.select().from(notifications).where(eq(notifications.user_id, owner.id));
    expect(
      emailed
        .filter((n) => n.emailed_at)
        .map((n) => n.watch_id)
        .sort(),
    ).toEqual([a, b].sort());
    // The watch with email off stays unsent.
    expect(emailed.filter((n) => !n.emailed_at)).toHaveLength(1);

    // Another alert within the hour: no second digest.
    await fire(sampleIsbns(1, base + 20));
    expect(await digest.sweep()).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toHaveLength(1);
    // An hour later it goes out, with only what is new.
    await t.ctx.db.update(watchDigests).set({ sent_at: sql`now() - interval '61 minutes'` }).where(eq(watchDigests.user_id, owner.id));
    expect(await digest.sweep()).toBe(1);
    const [, next] = await mails(2);
    expect(next).toMatch(/^Subject: Books - 1 watch alert$/m);

    // The one-click links: a browser's GET answers a page, JSON when asked; the header's stops both watches.
    const path = (link: string) => link.replace('http://localhost:5173/api/v1', '');
    const page = await call('GET', path(must(links[0], 'a link')));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('You will no longer get emails about this watch');
    const rfc8058 = await t.app.inject({
      method: 'POST',
      url: `/api/v1${path(header)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(rfc8058.statusCode, rfc8058.body).toBe(200);
    expect(rfc8058.json().watch_ids.sort()).toEqual([a, b].sort());
    const stopped = await t.ctx.db.select({ id: watches.id, email: watches.email }).from(watches).where(eq(watches.user_id, owner.id));
    expect(stopped.filter((w) => [a, b].includes(w.id)).every((w) => !w.email)).toBe(true);
  });

  it('refuses a forged or mangled stop link without signing in', async () => {
    const [w] = await t.ctx.db.select().from(watches).limit(1);
    const id = must(w, 'a watch').id;
    for (const token of [`${id}.${'A'.repeat(43)}`, `${id}`, 'x', `${id + 1}-${id}.${'A'.repeat(43)}`]) {
      const res = await call('GET', `/watches/email-stop?token=${encodeURIComponent(token)}`);
      expect(res.statusCode, token).toBe(404);
      const json = await t.app.inject({
        method: 'GET',
        url: `/api/v1/watches/email-stop?token=${encodeURIComponent(token)}`,
        headers: { accept: 'application/json' },
      });
      expect(json.json()).toEqual({ detail: expect.stringMatching(/not valid/) });
    }
    expect((await call('GET', '/watches/email-stop')).statusCode).toBe(422);
  });
});
