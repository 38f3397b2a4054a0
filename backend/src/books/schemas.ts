// Shapes of the book API (/books/{isbn}): a book's page and its price history.
import { MARKETPLACE_IDS, MARKETPLACE_LIST, byMarketplace } from '@app/domain/marketplaces';
import { z } from 'zod';
import { IsbnText } from '../lib/isbn-schema.ts';
import { OfferSummary } from '../marketplaces/offer-summary.ts';
import { BookVelocity, KeepaStats } from '../velocity/book.ts';

/** Any form the upload's normaliser accepts; anything else is a 422 naming `isbn` with its reason. */
export const IsbnParam = z.object({
  isbn: IsbnText.meta({ description: 'ISBN-13 or ISBN-10, with or without hyphens; a scanned EAN with its add-on' }),
});

const MarketplaceId = z.enum(MARKETPLACE_IDS);

/** What every observation says: when, its status, its headline price and how many offers. */
const observed = {
  observed_at: z.date(),
  status: z.string(),
  /** The headline price: a selling marketplace's cheapest offer with shipping, PalletIQ's value. */
  price: z.number().nullable(),
  currency: z.string().nullable(),
  offer_count: z.number().int(),
};

export const BookAnswer = z
  .object({
    ...observed,
    /** Every offer as the marketplace sent it (the page's "All details"). */
    offers: z.array(z.record(z.string(), z.unknown())),
    /**
     * The offers as a dealer compares them, cheapest delivered first, read by the marketplace's own
     * normaliser; null when the answer is no offer list (PalletIQ's evaluation) or says no price or seller.
     */
    summaries: z.array(OfferSummary).nullable(),
  })
  .meta({ id: 'BookAnswer' });

export const BookJob = z
  .object({
    id: z.number().int(),
    name: z.string(),
    input_filename: z.string(),
    created_at: z.date(),
    /** The marketplaces the job asked about this book. */
    marketplaces: z.array(MarketplaceId),
  })
  .meta({ id: 'BookJob' });

export const BookDetailsPublic = z
  .object({
    title: z.string().nullable(),
    authors: z.string().nullable(),
    publisher: z.string().nullable(),
    publish_year: z.number().int().nullable(),
    cover_url: z.string().nullable(),
    fetched_at: z.date(),
    source: z.literal('Open Library'),
  })
  .meta({ id: 'BookDetails' });

export const BookPublic = z
  .object({
    isbn: z.string(),
    isbn10: z.string().nullable(),
    /** Open Library's title when it has one, else the first marketplace's listing title. */
    title: z.string().nullable(),
    author: z.string().nullable(),
    /** What Open Library says about the book (null: not fetched yet, or Open Library does not know it). */
    details: BookDetailsPublic.nullable(),
    /** Every marketplace in the registry's order, with its latest answer (null: never answered). */
    marketplaces: z.array(z.object({ marketplace: MarketplaceId, latest: BookAnswer.nullable() })),
    /** Jobs of the caller that included the book (superusers: everyone's), newest first. */
    jobs: z.array(BookJob),
    jobs_truncated: z.boolean(),
  })
  .meta({ id: 'BookPublic' });

const HistoryPoint = z
  .object({
    ...observed,
    /** Amazon's (and Keepa's) market facts at that time; null where the source has none. */
    sales_rank: z.number().int().nullable(),
    buy_box_price: z.number().nullable(),
    lowest_used_price: z.number().nullable(),
    lowest_new_price: z.number().nullable(),
  })
  .meta({ id: 'HistoryPoint' });

export const BookHistory = z
  .object({
    isbn: z.string(),
    series: z.array(
      z.object({
        marketplace: MarketplaceId,
        /** Oldest first; at most the latest HISTORY_POINTS. */
        points: z.array(HistoryPoint),
        truncated: z.boolean(),
      }),
    ),
    /** Keepa's points of Amazon's history (empty without KEEPA_API_KEY): price is the lowest used, else new. */
    keepa: z.object({ points: z.array(HistoryPoint), truncated: z.boolean(), stats: KeepaStats.nullable() }),
    /** How fast it sells, drawn from these ranks (Keepa's series when present, else our looks). */
    velocity: BookVelocity.nullable(),
  })
  .meta({ id: 'BookHistory' });

/** The marketplaces to ask (none named means all of them), and whether a recent answer may be reused. */
export const BookPriceBody = z
  .object({
    ...byMarketplace(() => z.boolean().optional()),
    fresh: z
      .boolean()
      .optional()
      .meta({ description: 'Ask the marketplaces now: reuse no recent answer (by default one from the reuse window is taken)' }),
  })
  .refine((body) => MARKETPLACE_IDS.every((id) => body[id] === undefined) || MARKETPLACE_IDS.some((id) => body[id]), {
    message: 'Choose at least one marketplace',
    path: ['sources'],
  })
  .meta({ id: 'BookPriceBody' });

/** The body's flags as a job's: all marketplaces when none is named. */
export function chosenMarketplaces(
  body: z.infer<typeof BookPriceBody> | null | undefined,
): Record<(typeof MARKETPLACE_IDS)[number], boolean> {
  const named = body && MARKETPLACE_LIST.some((m) => body[m.id] !== undefined);
  return byMarketplace((m) => (named ? body[m.id] === true : true));
}
