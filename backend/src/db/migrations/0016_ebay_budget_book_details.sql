CREATE TABLE "book_details" (
	"isbn" varchar(13) PRIMARY KEY NOT NULL,
	"found" boolean NOT NULL,
	"title" text,
	"authors" text,
	"publisher" text,
	"publish_year" integer,
	"cover_url" text,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ebay_price_lookups" (
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
	"title" text,
	"price" double precision,
	"shipping_cost" double precision,
	"condition" text,
	"seller_username" text,
	"seller_feedback_percentage" double precision,
	"listing_url" text,
	"currency" text,
	"shipping_type" text,
	"condition_id" text,
	"seller_feedback_score" double precision,
	"buying_options" text,
	"item_id" text
);
--> statement-breakpoint
CREATE TABLE "marketplace_daily_calls" (
	"marketplace" varchar(32) PRIMARY KEY NOT NULL,
	"day" varchar(10) NOT NULL,
	"used" integer NOT NULL,
	"resumes_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "ebay" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ebay_price_lookups" ADD CONSTRAINT "ebay_price_lookups_isbn_lookup_job_id_jobs_id_fk" FOREIGN KEY ("isbn_lookup_job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "book_details_fetched_idx" ON "book_details" USING btree ("fetched_at");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_title_trgm_idx" ON "ebay_price_lookups" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_job_status_idx" ON "ebay_price_lookups" USING btree ("isbn_lookup_job_id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_job_isbn_idx" ON "ebay_price_lookups" USING btree ("isbn_lookup_job_id","isbn");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_created_idx" ON "ebay_price_lookups" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_job_queue_idx" ON "ebay_price_lookups" USING btree ("isbn_lookup_job_id","next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_lease_idx" ON "ebay_price_lookups" USING btree ("lease_expires_at") WHERE lookup_status = 'pending';--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_status_idx" ON "ebay_price_lookups" USING btree ("lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_queued_created_idx" ON "ebay_price_lookups" USING btree ("created_at") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_reusable_idx" ON "ebay_price_lookups" USING btree ("isbn","answered_at" DESC NULLS LAST) WHERE lookup_status IN ('completed', 'no_offers_available') AND answered_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_isbn_trgm_idx" ON "ebay_price_lookups" USING gin ("isbn" gin_trgm_ops);