DROP INDEX "comparison_rows_best_price_desc_idx";--> statement-breakpoint
DROP INDEX "comparison_rows_best_source_desc_idx";--> statement-breakpoint
DROP INDEX "comparison_rows_spread_desc_idx";--> statement-breakpoint
DROP INDEX "comparison_rows_best_price_idx";--> statement-breakpoint
DROP INDEX "comparison_rows_best_source_idx";--> statement-breakpoint
DROP INDEX "comparison_rows_spread_idx";--> statement-breakpoint
CREATE INDEX "comparison_rows_best_price_idx" ON "comparison_rows" USING btree ("job_id","best_price","row_id") WHERE "comparison_rows"."best_price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "comparison_rows_best_source_idx" ON "comparison_rows" USING btree ("job_id","best_source","row_id") WHERE "comparison_rows"."best_source" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "comparison_rows_spread_idx" ON "comparison_rows" USING btree ("job_id","spread","row_id") WHERE "comparison_rows"."spread" IS NOT NULL;