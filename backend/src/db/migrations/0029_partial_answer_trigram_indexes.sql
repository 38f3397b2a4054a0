DROP INDEX "abe_books_price_lookups_title_trgm_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_vendor_name_trgm_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_title_trgm_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_sellername_trgm_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_title_trgm_idx";--> statement-breakpoint
DROP INDEX "biblio_price_lookups_title_trgm_idx";--> statement-breakpoint
DROP INDEX "biblio_price_lookups_seller_trgm_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_title_trgm_idx";--> statement-breakpoint
DROP INDEX "pallet_iq_price_lookups_title_trgm_idx";--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_title_trgm_idx" ON "abe_books_price_lookups" USING gin ("title" gin_trgm_ops) WHERE "title" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_vendor_name_trgm_idx" ON "abe_books_price_lookups" USING gin ("vendor_name" gin_trgm_ops) WHERE "vendor_name" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_title_trgm_idx" ON "alibris_price_lookups" USING gin ("title" gin_trgm_ops) WHERE "title" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_sellername_trgm_idx" ON "alibris_price_lookups" USING gin ("sellername" gin_trgm_ops) WHERE "sellername" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_title_trgm_idx" ON "amazon_price_lookups" USING gin ("title" gin_trgm_ops) WHERE "title" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_title_trgm_idx" ON "biblio_price_lookups" USING gin ("title" gin_trgm_ops) WHERE "title" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_seller_trgm_idx" ON "biblio_price_lookups" USING gin ("seller" gin_trgm_ops) WHERE "seller" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_title_trgm_idx" ON "ebay_price_lookups" USING gin ("title" gin_trgm_ops) WHERE "title" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_title_trgm_idx" ON "pallet_iq_price_lookups" USING gin ("title" gin_trgm_ops) WHERE "title" IS NOT NULL;