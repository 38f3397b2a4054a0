// A book across the deployment: its latest answer per marketplace (price_observations, shared
// market data like the reuse of recent answers), its title and author from the lookup rows, its
// price series, and the jobs that included it (private: the caller's own, superusers all).
import { isbn13To10 } from '@app/domain/isbn';
import { MARKETPLACE_LIST, type MarketplaceId, type MarketplaceInfo } from '@app/domain/marketplaces';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { readBookDetails } from '../book-details/repository.ts';
import { priceObservations } from '../db/schema.ts';
import { ANSWERED_STATUSES, MARKET_FACTS, headlinePrice } from '../history/observations.ts';
import { summariseOffers } from '../marketplaces/offer-summary.ts';
import { marketplaceRegistry } from '../marketplaces/registry.ts';
import { KEEPA_SOURCE } from '@app/domain/velocity';
import type { UserRow } from '../users/schemas.ts';
import { readBookVelocity, readKeepaStats } from '../velocity/book.ts';

/** Jobs listed on a book's page; more are left out (jobs_truncated). */
export const BOOK_JOBS_LIMIT = 50;
/** Points per marketplace in a book's price series: the latest ones. */
export const HISTORY_POINTS = 500;

/** Rows with an answer (the statuses reuse and history read; failures are not answers). */
const ANSWERED = sql`lookup_status IN (${sql.join(
  ANSWERED_STATUSES.map((s) => sql`${s}`),
  sql`, `,
)}) AND answered_at IS NOT NULL`;

const hasField = (m: MarketplaceInfo, name: string) => m.fields.some((f) => f.name === name);

type AnswerRow = {
  observed_at: Date | string;
  status: string;
  price: number | null;
  currency: string | null;
  offer_count: number;
  offers: unknown;
};

const toAnswer = (r: AnswerRow) => ({
  observed_at: new Date(r.observed_at),
  status: r.status,
  price: r.price,
  currency: r.currency,
  offer_count: r.offer_count,
  offers: Array.isArray(r.offers) ? (r.offers as Record<string, unknown>[]) : [],
});

/** The latest observation, with its offers: kept only when they changed, so the latest kept at or before it. */
async function latestObservation(db: Db, m: MarketplaceId, isbn: string) {
  const { rows } = await db.execute<AnswerRow>(sql`
    SELECT o.observed_at, o.status, o.price, o.currency, o.offer_count,
           coalesce(o.offers, (SELECT p.offers FROM ${priceObservations} p
                               WHERE p.isbn = o.isbn AND p.marketplace = o.marketplace AND p.offers IS NOT NULL
                                 AND (p.observed_at, p.id) <= (o.observed_at, o.id)
                               ORDER BY p.observed_at DESC, p.id DESC LIMIT 1)) AS offers
    FROM ${priceObservations} o
    WHERE o.isbn = ${isbn} AND o.marketplace = ${m}
    ORDER BY o.observed_at DESC, o.id DESC LIMIT 1`);
  return rows[0] ? toAnswer(rows[0]) : null;
}

/** The latest answered lookup row of any job: the answer when no observation exists, and its title and author. */
async function latestLookup(db: Db, m: MarketplaceInfo, isbn: string) {
  const alias = sql.identifier(m.id);
  const { price, currency } = headlinePrice(m.id, (name) => sql`${alias}.${sql.identifier(name)}`);
  // The title and author of the latest row that has them (a later "no offers" answer has none).
  const described = (name: string) =>
    hasField(m, name)
      ? sql`(SELECT ${sql.identifier(name)} FROM ${sql.identifier(m.table)}
             WHERE isbn = ${isbn} AND ${ANSWERED} AND ${sql.identifier(name)} IS NOT NULL AND ${sql.identifier(name)} <> ''
             ORDER BY answered_at DESC, id DESC LIMIT 1)`
      : sql`NULL::text`;
  const { rows } = await db.execute<AnswerRow & { title: string | null; author: string | null; found: boolean }>(sql`
    SELECT ${described('title')} AS title, ${described('author')} AS author, a.*
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT true AS found, ${alias}.answered_at AS observed_at, ${alias}.lookup_status AS status, ${price} AS price, ${currency} AS currency,
             coalesce(${alias}.offer_count, 0) AS offer_count,
             ${alias}.offers AS offers
      FROM ${sql.identifier(m.table)} AS ${alias}
      WHERE ${alias}.isbn = ${isbn} AND ${ANSWERED}
      ORDER BY ${alias}.answered_at DESC, ${alias}.id DESC LIMIT 1
    ) a ON true`);
  const row = rows[0];
  return { title: row?.title ?? null, author: row?.author ?? null, answer: row?.found ? toAnswer(row) : null };
}

/**
 * Jobs the user may see that included the book, newest first, with the marketplaces each asked about it.
 * Driven from the jobs: per job one probe of each asked marketplace's (job, ISBN) index. An ISBN's
 * trigram index would answer `isbn = …` too, but slowly (every ISBN shares most trigrams: 28 ms per
 * table on 150k rows, measured).
 */
async function jobsWithBook(db: Db, user: UserRow, isbn: string) {
  const asked = MARKETPLACE_LIST.map(
    (m) =>
      sql`CASE WHEN j.${sql.identifier(m.id)} AND EXISTS (SELECT 1 FROM ${sql.identifier(m.table)} l WHERE l.isbn_lookup_job_id = j.id AND l.isbn = ${isbn})
               THEN ${m.id}::text END`,
  );
  const visible = user.is_superuser ? sql`` : sql`WHERE j.owner_id = ${user.id}`;
  const { rows } = await db.execute<{
    id: number;
    name: string;
    input_filename: string;
    created_at: Date | string;
    marketplaces: string[];
  }>(sql`
    SELECT * FROM (
      SELECT j.id, j.name, j.input_filename, j.created_at, array_remove(ARRAY[${sql.join(asked, sql`, `)}], NULL) AS marketplaces
      FROM jobs j ${visible}
    ) x
    WHERE cardinality(x.marketplaces) > 0
    ORDER BY x.created_at DESC, x.id DESC
    LIMIT ${BOOK_JOBS_LIMIT + 1}`);
  const jobs = rows.slice(0, BOOK_JOBS_LIMIT).map((j) => ({
    ...j,
    created_at: new Date(j.created_at),
    marketplaces: j.marketplaces as MarketplaceId[],
  }));
  return { jobs, jobs_truncated: rows.length > BOOK_JOBS_LIMIT };
}

export async function readBook(db: Db, user: UserRow, isbn: string) {
  const [perMarketplace, stored] = await Promise.all([
    Promise.all(
      MARKETPLACE_LIST.map(async (m) => {
        const [observed, lookup] = await Promise.all([latestObservation(db, m.id, isbn), latestLookup(db, m, isbn)]);
        const latest = observed ?? lookup.answer;
        // The offers as the book page shows them, read by the marketplace's own normaliser (its folder's offers.ts).
        const summaries = latest && summariseOffers(marketplaceRegistry[m.id].normaliseOffer, latest.offers);
        return { marketplace: m.id, latest: latest && { ...latest, summaries }, title: lookup.title, author: lookup.author };
      }),
    ),
    readBookDetails(db, isbn),
  ]);
  const details = stored?.found
    ? {
        title: stored.title,
        authors: stored.authors,
        publisher: stored.publisher,
        publish_year: stored.publish_year,
        cover_url: stored.cover_url,
        fetched_at: stored.fetched_at,
        source: 'Open Library' as const,
      }
    : null;
  return {
    isbn,
    isbn10: isbn13To10(isbn),
    // Open Library's, else the first marketplace in the registry's order that gave one.
    title: details?.title ?? perMarketplace.find((m) => m.title)?.title ?? null,
    author: details?.authors ?? perMarketplace.find((m) => m.author)?.author ?? null,
    details,
    marketplaces: perMarketplace.map(({ marketplace, latest }) => ({ marketplace, latest })),
    ...(await jobsWithBook(db, user, isbn)),
  };
}

type HistoryRow = Omit<AnswerRow, 'offers'> & Record<(typeof MARKET_FACTS)[number], number | null>;

/** The latest HISTORY_POINTS observations of one source (a marketplace, or Keepa's points), oldest first. */
async function readSeries(db: Db, isbn: string, source: string) {
  const { rows } = await db.execute<HistoryRow>(sql`
    SELECT observed_at, status, price, currency, offer_count, ${sql.join(
      MARKET_FACTS.map((name) => sql.identifier(name)),
      sql`, `,
    )} FROM ${priceObservations}
    WHERE isbn = ${isbn} AND marketplace = ${source}
    ORDER BY observed_at DESC, id DESC LIMIT ${HISTORY_POINTS + 1}`);
  const points = rows
    .slice(0, HISTORY_POINTS)
    .reverse()
    .map((r) => ({ ...r, observed_at: new Date(r.observed_at) }));
  return { points, truncated: rows.length > HISTORY_POINTS };
}

/**
 * Per marketplace, its latest HISTORY_POINTS observations, oldest first; Keepa's points of Amazon's
 * history (keepa/), which reach back before our first look, with Keepa's own stats; and the velocity
 * figures drawn from these ranks (velocity/).
 */
export async function readHistory(db: Db, isbn: string) {
  const [series, keepa, stats, velocity] = await Promise.all([
    Promise.all(MARKETPLACE_LIST.map(async (m) => ({ marketplace: m.id, ...(await readSeries(db, isbn, m.id)) }))),
    readSeries(db, isbn, KEEPA_SOURCE),
    readKeepaStats(db, isbn),
    readBookVelocity(db, isbn),
  ]);
  return { isbn, series, keepa: { ...keepa, stats }, velocity };
}
