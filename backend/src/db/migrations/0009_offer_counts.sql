ALTER TABLE "abe_books_price_lookups" ADD COLUMN "offer_count" integer;--> statement-breakpoint
ALTER TABLE "alibris_price_lookups" ADD COLUMN "offer_count" integer;--> statement-breakpoint
ALTER TABLE "biblio_price_lookups" ADD COLUMN "offer_count" integer;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "offer_count" integer;--> statement-breakpoint
-- Counts of the offers already stored (no offers: 0; never answered or failed: null).
UPDATE "abe_books_price_lookups" SET "offer_count" = jsonb_array_length("offers") WHERE jsonb_typeof("offers") = 'array';--> statement-breakpoint
UPDATE "alibris_price_lookups" SET "offer_count" = jsonb_array_length("offers") WHERE jsonb_typeof("offers") = 'array';--> statement-breakpoint
UPDATE "biblio_price_lookups" SET "offer_count" = jsonb_array_length("offers") WHERE jsonb_typeof("offers") = 'array';--> statement-breakpoint
UPDATE "pallet_iq_price_lookups" SET "offer_count" = jsonb_array_length("offers") WHERE jsonb_typeof("offers") = 'array';
