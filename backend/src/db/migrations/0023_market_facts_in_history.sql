ALTER TABLE "price_observations" ADD COLUMN "sales_rank" integer;--> statement-breakpoint
ALTER TABLE "price_observations" ADD COLUMN "buy_box_price" double precision;--> statement-breakpoint
ALTER TABLE "price_observations" ADD COLUMN "lowest_used_price" double precision;--> statement-breakpoint
ALTER TABLE "price_observations" ADD COLUMN "lowest_new_price" double precision;