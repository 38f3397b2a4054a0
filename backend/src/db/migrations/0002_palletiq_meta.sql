ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "asin" text;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "image_url" text;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "weight" double precision;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "fba_decision" text;--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_title_trgm_idx" ON "pallet_iq_price_lookups" USING gin ("title" gin_trgm_ops);