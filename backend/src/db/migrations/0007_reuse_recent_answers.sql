ALTER TABLE "abe_books_price_lookups" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "abe_books_price_lookups" ADD COLUMN "reused_from" bigint;--> statement-breakpoint
ALTER TABLE "alibris_price_lookups" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alibris_price_lookups" ADD COLUMN "reused_from" bigint;--> statement-breakpoint
ALTER TABLE "biblio_price_lookups" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "biblio_price_lookups" ADD COLUMN "reused_from" bigint;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "reused_from" bigint;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_reusable_idx" ON "abe_books_price_lookups" USING btree ("isbn","answered_at" DESC NULLS LAST) WHERE lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_reusable_idx" ON "alibris_price_lookups" USING btree ("isbn","answered_at" DESC NULLS LAST) WHERE lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_reusable_idx" ON "biblio_price_lookups" USING btree ("isbn","answered_at" DESC NULLS LAST) WHERE lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_reusable_idx" ON "pallet_iq_price_lookups" USING btree ("isbn","answered_at" DESC NULLS LAST) WHERE lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL;