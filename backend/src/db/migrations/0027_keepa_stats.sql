ALTER TABLE "keepa_books" ADD COLUMN "stats_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "keepa_books" ADD COLUMN "stats_rank_drops_30" integer;--> statement-breakpoint
ALTER TABLE "keepa_books" ADD COLUMN "stats_rank_drops_90" integer;--> statement-breakpoint
ALTER TABLE "keepa_books" ADD COLUMN "stats_rank_drops_180" integer;--> statement-breakpoint
ALTER TABLE "keepa_books" ADD COLUMN "stats_avg_rank_90" integer;--> statement-breakpoint
ALTER TABLE "keepa_books" ADD COLUMN "stats_avg_rank_180" integer;--> statement-breakpoint
ALTER TABLE "keepa_books" ADD COLUMN "stats_current_rank" integer;--> statement-breakpoint
ALTER TABLE "keepa_books" ADD COLUMN "stats_used_price" double precision;--> statement-breakpoint
ALTER TABLE "keepa_books" ADD COLUMN "stats_new_price" double precision;