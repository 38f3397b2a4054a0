CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "abe_books_price_lookups" (
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
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"listing_url" text,
	"listing_price" double precision,
	"total_listing_price" double precision,
	"quantity" double precision,
	"listing_condition" text,
	"item_condition" text,
	"seller_rating" double precision,
	"vendor_price" double precision,
	"vendor_id" text,
	"title" text,
	"author" text,
	"vendor_name" text
);
--> statement-breakpoint
CREATE TABLE "alibris_price_lookups" (
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
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"title" text,
	"sellername" text,
	"condition" text,
	"price" double precision,
	"sellercountry" text,
	"author" text
);
--> statement-breakpoint
CREATE TABLE "biblio_price_lookups" (
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
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"book_link" text,
	"product_id" text,
	"price" double precision,
	"author" text,
	"title" text,
	"subtitle" text,
	"currency" text,
	"seller" text,
	"seller_id" text,
	"book_condition" text,
	"publisher" text,
	"publish_date" text,
	"seller_country" text,
	"slug" text,
	"biblio_sku" text,
	"photo" text,
	"isbn10" text,
	"isbn13" text,
	"edition" text,
	"binding" text,
	"format" text,
	"first_edition" text,
	"signed" text,
	"jacket" text,
	"jacket_condition" text,
	"illustrator" text,
	"publish_place" text,
	"language" text,
	"pages" text,
	"keywords" text,
	"description" text,
	"listing_id" text,
	"date_added" text,
	"ship_to_country" text,
	"seller_city" text,
	"seller_state" text,
	"url" text,
	"affiliate_url" text,
	"book_id" text,
	"isbn_match" text,
	"shipping_method" text,
	"seller_email" text,
	"seller_phone" text,
	"return_policy" text,
	"item_note" text,
	"size" text,
	"category" text,
	"dust_jacket" text,
	"inscribed" text,
	"availability" text,
	"location" text,
	"currency_conversion_rate" double precision,
	"ninety_day_fulfillment" double precision,
	"ninety_day_count" double precision,
	"dealer_discount" double precision,
	"numeric_condition" double precision,
	"quantity" double precision,
	"listing_orig_price" double precision,
	"listing_reduced_price" double precision,
	"shipping_price" double precision,
	"seller_rating" double precision,
	"photo_count" double precision
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" varchar(255) NOT NULL,
	"description" varchar(255),
	"owner_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_rejections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" integer NOT NULL,
	"sheet" text,
	"row_number" integer NOT NULL,
	"raw_value" text NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"input_filename" varchar(255) NOT NULL,
	"owner_id" uuid NOT NULL,
	"abe_books" boolean DEFAULT false NOT NULL,
	"biblio" boolean DEFAULT false NOT NULL,
	"alibris" boolean DEFAULT false NOT NULL,
	"pallet_iq" boolean DEFAULT false NOT NULL,
	"ingest_report" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pallet_iq_price_lookups" (
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
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"winner_amazon_log_data_mp_decision" text,
	"winner_amazon_log_data_mm_val" double precision
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" varchar(255) NOT NULL,
	"full_name" varchar(255),
	"hashed_password" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_superuser" boolean DEFAULT false NOT NULL,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "abe_books_price_lookups" ADD CONSTRAINT "abe_books_price_lookups_isbn_lookup_job_id_jobs_id_fk" FOREIGN KEY ("isbn_lookup_job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alibris_price_lookups" ADD CONSTRAINT "alibris_price_lookups_isbn_lookup_job_id_jobs_id_fk" FOREIGN KEY ("isbn_lookup_job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "biblio_price_lookups" ADD CONSTRAINT "biblio_price_lookups_isbn_lookup_job_id_jobs_id_fk" FOREIGN KEY ("isbn_lookup_job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_rejections" ADD CONSTRAINT "job_rejections_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD CONSTRAINT "pallet_iq_price_lookups_isbn_lookup_job_id_jobs_id_fk" FOREIGN KEY ("isbn_lookup_job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_title_trgm_idx" ON "abe_books_price_lookups" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_vendor_name_trgm_idx" ON "abe_books_price_lookups" USING gin ("vendor_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_job_status_idx" ON "abe_books_price_lookups" USING btree ("isbn_lookup_job_id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_created_idx" ON "abe_books_price_lookups" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_queue_idx" ON "abe_books_price_lookups" USING btree ("next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_lease_idx" ON "abe_books_price_lookups" USING btree ("lease_expires_at") WHERE lookup_status = 'pending';--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_status_idx" ON "abe_books_price_lookups" USING btree ("lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_isbn_trgm_idx" ON "abe_books_price_lookups" USING gin ("isbn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_title_trgm_idx" ON "alibris_price_lookups" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_sellername_trgm_idx" ON "alibris_price_lookups" USING gin ("sellername" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_job_status_idx" ON "alibris_price_lookups" USING btree ("isbn_lookup_job_id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_created_idx" ON "alibris_price_lookups" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_queue_idx" ON "alibris_price_lookups" USING btree ("next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_lease_idx" ON "alibris_price_lookups" USING btree ("lease_expires_at") WHERE lookup_status = 'pending';--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_status_idx" ON "alibris_price_lookups" USING btree ("lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_isbn_trgm_idx" ON "alibris_price_lookups" USING gin ("isbn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_title_trgm_idx" ON "biblio_price_lookups" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_seller_trgm_idx" ON "biblio_price_lookups" USING gin ("seller" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_job_status_idx" ON "biblio_price_lookups" USING btree ("isbn_lookup_job_id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_created_idx" ON "biblio_price_lookups" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_queue_idx" ON "biblio_price_lookups" USING btree ("next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_lease_idx" ON "biblio_price_lookups" USING btree ("lease_expires_at") WHERE lookup_status = 'pending';--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_status_idx" ON "biblio_price_lookups" USING btree ("lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_isbn_trgm_idx" ON "biblio_price_lookups" USING gin ("isbn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "items_owner_idx" ON "items" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "job_rejections_job_idx" ON "job_rejections" USING btree ("job_id","row_number");--> statement-breakpoint
CREATE INDEX "jobs_owner_created_idx" ON "jobs" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_job_status_idx" ON "pallet_iq_price_lookups" USING btree ("isbn_lookup_job_id","lookup_status");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_created_idx" ON "pallet_iq_price_lookups" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_queue_idx" ON "pallet_iq_price_lookups" USING btree ("next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_lease_idx" ON "pallet_iq_price_lookups" USING btree ("lease_expires_at") WHERE lookup_status = 'pending';--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_status_idx" ON "pallet_iq_price_lookups" USING btree ("lookup_status");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_isbn_trgm_idx" ON "pallet_iq_price_lookups" USING gin ("isbn" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));