ALTER TABLE "abe_books_price_lookups" ADD COLUMN "offer_count" integer;--> statement-breakpoint
ALTER TABLE "alibris_price_lookups" ADD COLUMN "offer_count" integer;--> statement-breakpoint
ALTER TABLE "biblio_price_lookups" ADD COLUMN "offer_count" integer;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "offer_count" integer;--> statement-breakpoint
-- Counts of the offers already stored (no offers: 0; never answered or failed: null).
UPDATE "abe_books_price_lookups" SET "offer_count" = jsonb_array_length("offers") WHERE jsonb_typeof("offers") = 'array';--> statement-breakpoint
UPDATE "alibris_price_lookups" SET "offer_count" = jsonb_array_length("offers") WHERE jsonb_typeof("offers") = 'array';--> statement-breakpoint
UPDATE "biblio_price_lookups" SET "offer_count" = jsonb_array_length("offers") WHERE jsonb_typeof("offers") = 'array';--> statement-breakpoint
UPDATE "pallet_iq_price_lookups" SET "offer_count" = jsonb_array_length("offers") WHERE jsonb_typeof("offers") = 'array';;--> statement-breakpoint
-- The previous look of every answer already stored: the latest observation (0008 moved them in) of
-- its marketplace and ISBN before it; a reused row, whose answer time is its source's, gets its source's.
UPDATE "abe_books_price_lookups" t SET ("previous_price", "previous_currency") = (
  SELECT o."price", o."currency" FROM "price_observations" o
  WHERE o."isbn" = t."isbn" AND o."marketplace" = 'abe_books' AND o."observed_at" < t."answered_at"
  ORDER BY o."observed_at" DESC LIMIT 1)
WHERE t."answered_at" IS NOT NULL;--> statement-breakpoint
UPDATE "alibris_price_lookups" t SET ("previous_price", "previous_currency") = (
  SELECT o."price", o."currency" FROM "price_observations" o
  WHERE o."isbn" = t."isbn" AND o."marketplace" = 'alibris' AND o."observed_at" < t."answered_at"
  ORDER BY o."observed_at" DESC LIMIT 1)
WHERE t."answered_at" IS NOT NULL;--> statement-breakpoint
UPDATE "biblio_price_lookups" t SET ("previous_price", "previous_currency") = (
  SELECT o."price", o."currency" FROM "price_observations" o
  WHERE o."isbn" = t."isbn" AND o."marketplace" = 'biblio' AND o."observed_at" < t."answered_at"
  ORDER BY o."observed_at" DESC LIMIT 1)
WHERE t."answered_at" IS NOT NULL;--> statement-breakpoint
UPDATE "pallet_iq_price_lookups" t SET ("previous_price", "previous_currency") = (
  SELECT o."price", o."currency" FROM "price_observations" o
  WHERE o."isbn" = t."isbn" AND o."marketplace" = 'pallet_iq' AND o."observed_at" < t."answered_at"
  ORDER BY o."observed_at" DESC LIMIT 1)
WHERE t."answered_at" IS NOT NULL;
