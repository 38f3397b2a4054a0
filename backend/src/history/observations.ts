// Price history: every answer a marketplace gives is kept as a row of price_observations, written by
// the worker in the same statement that finishes the lookups (worker/queue.ts), so re-pricing a job
// or reusing an answer never erases what was seen before. This module gives that statement its parts.
import { sql, type SQL } from 'drizzle-orm';
import { COMPARISON_CURRENCY, DECISION_SOURCES, PRICE_SOURCES } from '@app/domain/comparison';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { priceOf } from '../comparison/query.ts';
import { priceObservations } from '../db/schema.ts';

/** Lookup statuses that are answers; failures (and cancelled or queued rows) are never observations. */
export const ANSWERED_STATUSES = ['completed', 'no_offers_available'] as const;

const answered = sql.join(
  ANSWERED_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);

/**
 * A lookup row's headline price and its currency: for a selling marketplace the price the comparison
 * shows (its chosen offer with shipping, in its own currency), for PalletIQ its value in USD.
 * `columnOf` names the row's columns in the caller's statement. A currency that is not three letters
 * is left out (the column holds three; the comparison never compares such a price anyway).
 */
export function headlinePrice(marketplace: MarketplaceId, columnOf: (name: string) => SQL): { price: SQL; currency: SQL } {
  const source = PRICE_SOURCES.find((s) => s.marketplace === marketplace);
  if (source) {
    const { price, currency } = priceOf(source, true, columnOf);
    return { price, currency: sql`CASE WHEN ${currency} ~ '^[A-Z]{3}$' THEN ${currency} END` };
  }
  const advice = DECISION_SOURCES.find((d) => d.marketplace === marketplace);
  if (advice) {
    const value = columnOf(advice.value);
    return { price: value, currency: sql`CASE WHEN ${value} IS NOT NULL THEN ${COMPARISON_CURRENCY}::text END` };
  }
  return { price: sql`NULL::double precision`, currency: sql`NULL::text` };
}

/**
 * Market facts kept in the history beside the headline price, by the lookup column of the same name:
 * a marketplace whose field table has them (Amazon) keeps them with every answer, so the book page
 * charts the sales rank over time and velocity can be read from it (docs/features/history.md).
 */
export const MARKET_FACTS = ['sales_rank', 'buy_box_price', 'lowest_used_price', 'lowest_new_price'] as const;

/** SELECT-list items naming each market fact (NULL where the marketplace has no such field). */
export function marketFacts(marketplace: MarketplaceId, columnOf: (name: string) => SQL): SQL {
  const fields = MARKETPLACES[marketplace].fields;
  return sql.join(
    MARKET_FACTS.map((name) => {
      const has = fields.some((f) => f.name === name);
      const value = has ? columnOf(name) : sql`NULL`;
      const cast = name === 'sales_rank' ? sql`round(${value})::integer` : sql`${value}::double precision`;
      return sql`${cast} AS ${sql.identifier(name)}`;
    }),
    sql`, `,
  );
}

/** The latest observation of (marketplace, ISBN) before this statement, one index probe (isbn, marketplace, observed_at desc). */
const latest = (marketplace: MarketplaceId, isbn: SQL, columns: SQL, extra: SQL = sql``) =>
  sql`SELECT ${columns} FROM ${priceObservations} o
      WHERE o.isbn = ${isbn} AND o.marketplace = ${marketplace}${extra}
      ORDER BY o.observed_at DESC LIMIT 1`;

/**
 * SET-list item giving a lookup row the price of the previous look at its ISBN on this marketplace:
 * the latest observation before this answer. Inside the statement that also records this answer, the
 * new observation is not visible yet (one snapshot), so "latest" is the one before it.
 */
export const setPreviousLook = (marketplace: MarketplaceId, isbn: SQL) =>
  sql`(previous_price, previous_currency) = (${latest(marketplace, isbn, sql`o.price, o.currency`)})`;

/**
 * `INSERT INTO price_observations …` (a data-modifying CTE) of the answered rows of `finished`, a
 * CTE with columns id, isbn, lookup_status, offers, offer_count, answered_at, price, currency and the
 * MARKET_FACTS (marketFacts). Failures write
 * nothing. `offers` is stored only when it differs from the latest stored offers of the ISBN on this
 * marketplace, else NULL: most re-prices see the same listings, and the offers are most of a row's
 * size. Readers take the latest non-null offers at or before an observation. (Two rows of one ISBN in
 * the same batch both compare with what was stored before the batch, so both may store theirs.)
 */
export function recordObservations(marketplace: MarketplaceId, finished: SQL): SQL {
  const lastOffers = latest(marketplace, sql`f.isbn`, sql`o.offers`, sql` AND o.offers IS NOT NULL`);
  const facts = sql.join(
    MARKET_FACTS.map((name) => sql.identifier(name)),
    sql`, `,
  );
  return sql`INSERT INTO ${priceObservations} (marketplace, isbn, observed_at, status, price, currency, offer_count, offers, lookup_id, ${facts})
    SELECT ${marketplace}, f.isbn, f.answered_at, f.lookup_status, f.price, f.currency,
           coalesce(f.offer_count, 0),
           CASE WHEN f.offers IS NOT DISTINCT FROM (${lastOffers}) THEN NULL ELSE f.offers END,
           f.id, ${sql.join(
             MARKET_FACTS.map((name) => sql`f.${sql.identifier(name)}`),
             sql`, `,
           )}
    FROM ${finished} f
    WHERE f.lookup_status IN (${answered})`;
}
