CREATE TABLE "amazon_price_lookups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"isbn_lookup_job_id" integer NOT NULL,
	"isbn" varchar(13) NOT NULL,
	"input_filename" varchar(255),
	"lookup_status" varchar(32) DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"last_error" text,
	"offers" jsonb,
	"offer_count" integer,
	"answered_at" timestamp with time zone,
	"reused_from" bigint,
	"previous_price" double precision,
	"previous_currency" varchar(3),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"asin" text,
	"title" text,
	"sales_rank" double precision,
	"lowest_used_price" double precision,
	"lowest_new_price" double precision,
	"buy_box_price" double precision,
	"used_offer_count" double precision,
	"total_offer_count" double precision,
	"condition" text,
	"sub_condition" text,
	"listing_price" double precision,
	"shipping" double precision,
	"seller_id" text,
	"seller_feedback_percent" double precision,
	"seller_feedback_count" double precision,
	"fulfilled_by_amazon" text,
	"prime" text,
	"buy_box_winner" text,
	"author" text,
	"sales_rank_category" text,
	"new_offer_count" double precision,
	"product_url" text
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "amazon" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "amazon_price_lookups" ADD CONSTRAINT "amazon_price_lookups_isbn_lookup_job_id_jobs_id_fk" FOREIGN KEY ("isbn_lookup_job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_title_trgm_idx" ON "amazon_price_lookups" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_job_status_idx" ON "amazon_price_lookups" USING btree ("isbn_lookup_job_id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_job_isbn_idx" ON "amazon_price_lookups" USING btree ("isbn_lookup_job_id","isbn");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_created_idx" ON "amazon_price_lookups" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_job_queue_idx" ON "amazon_price_lookups" USING btree ("isbn_lookup_job_id","next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_lease_idx" ON "amazon_price_lookups" USING btree ("lease_expires_at") WHERE lookup_status = 'pending';--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_status_idx" ON "amazon_price_lookups" USING btree ("lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_queued_created_idx" ON "amazon_price_lookups" USING btree ("created_at") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_reusable_idx" ON "amazon_price_lookups" USING btree ("isbn","answered_at" DESC NULLS LAST) WHERE lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_isbn_trgm_idx" ON "amazon_price_lookups" USING gin ("isbn" gin_trgm_ops);