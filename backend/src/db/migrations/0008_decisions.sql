CREATE TABLE "fee_schedules" (
	"marketplace" varchar(32) PRIMARY KEY NOT NULL,
	"percent" double precision NOT NULL,
	"fixed" double precision NOT NULL,
	"shipping_credit" double precision NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_decisions" (
	"job_id" integer NOT NULL,
	"row_id" bigint NOT NULL,
	"rule_index" integer,
	"outcome" varchar(64) NOT NULL,
	CONSTRAINT "job_decisions_job_id_row_id_pk" PRIMARY KEY("job_id","row_id")
);
--> statement-breakpoint
CREATE TABLE "price_observations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"marketplace" varchar(32) NOT NULL,
	"isbn" varchar(13) NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"status" varchar(32) NOT NULL,
	"price" double precision,
	"currency" varchar(3),
	"offer_count" integer DEFAULT 0 NOT NULL,
	"offers" jsonb,
	"lookup_id" bigint
);
--> statement-breakpoint
CREATE TABLE "rule_set_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_set_id" integer NOT NULL,
	"version" integer NOT NULL,
	"rules" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rule_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" varchar(255) NOT NULL,
	"is_team_default" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "abe_books_price_lookups" ADD COLUMN "previous_price" double precision;--> statement-breakpoint
ALTER TABLE "abe_books_price_lookups" ADD COLUMN "previous_currency" varchar(3);--> statement-breakpoint
ALTER TABLE "alibris_price_lookups" ADD COLUMN "previous_price" double precision;--> statement-breakpoint
ALTER TABLE "alibris_price_lookups" ADD COLUMN "previous_currency" varchar(3);--> statement-breakpoint
ALTER TABLE "biblio_price_lookups" ADD COLUMN "previous_price" double precision;--> statement-breakpoint
ALTER TABLE "biblio_price_lookups" ADD COLUMN "previous_currency" varchar(3);--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "cost_per_book" double precision;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "rule_set_version_id" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "judged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "previous_price" double precision;--> statement-breakpoint
ALTER TABLE "pallet_iq_price_lookups" ADD COLUMN "previous_currency" varchar(3);--> statement-breakpoint
ALTER TABLE "fee_schedules" ADD CONSTRAINT "fee_schedules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_decisions" ADD CONSTRAINT "job_decisions_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_set_versions" ADD CONSTRAINT "rule_set_versions_rule_set_id_rule_sets_id_fk" FOREIGN KEY ("rule_set_id") REFERENCES "public"."rule_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_set_versions" ADD CONSTRAINT "rule_set_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_sets" ADD CONSTRAINT "rule_sets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_decisions_outcome_idx" ON "job_decisions" USING btree ("job_id","outcome","row_id");--> statement-breakpoint
CREATE INDEX "price_observations_isbn_idx" ON "price_observations" USING btree ("isbn","marketplace","observed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "price_observations_observed_idx" ON "price_observations" USING btree ("observed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rule_set_versions_set_version_idx" ON "rule_set_versions" USING btree ("rule_set_id","version");--> statement-breakpoint
CREATE INDEX "rule_sets_owner_idx" ON "rule_sets" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rule_sets_one_team_default_idx" ON "rule_sets" USING btree ("is_team_default") WHERE is_team_default AND deleted_at IS NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_rule_set_version_id_rule_set_versions_id_fk" FOREIGN KEY ("rule_set_version_id") REFERENCES "public"."rule_set_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Price history starts with every answer already in the lookup tables (not the copies reuse made).
-- The headline price is the one the comparison uses: a selling marketplace's chosen total, PalletIQ's value.
INSERT INTO "price_observations" ("marketplace", "isbn", "observed_at", "status", "price", "currency", "offer_count", "offers", "lookup_id")
SELECT 'abe_books', isbn, answered_at, lookup_status, coalesce(total_listing_price, listing_price),
       CASE WHEN coalesce(total_listing_price, listing_price) IS NOT NULL THEN 'USD' END,
       CASE WHEN jsonb_typeof(offers) = 'array' THEN jsonb_array_length(offers) ELSE 0 END, offers, id
FROM "abe_books_price_lookups"
WHERE answered_at IS NOT NULL AND reused_from IS NULL AND lookup_status IN ('completed', 'no_offers_available');--> statement-breakpoint
INSERT INTO "price_observations" ("marketplace", "isbn", "observed_at", "status", "price", "currency", "offer_count", "offers", "lookup_id")
SELECT 'biblio', isbn, answered_at, lookup_status, price + coalesce(shipping_price, 0),
       CASE WHEN price IS NOT NULL THEN
         CASE WHEN upper(coalesce(nullif(currency, ''), 'USD')) ~ '^[A-Z]{3}$' THEN upper(coalesce(nullif(currency, ''), 'USD')) END
       END,
       CASE WHEN jsonb_typeof(offers) = 'array' THEN jsonb_array_length(offers) ELSE 0 END, offers, id
FROM "biblio_price_lookups"
WHERE answered_at IS NOT NULL AND reused_from IS NULL AND lookup_status IN ('completed', 'no_offers_available');--> statement-breakpoint
INSERT INTO "price_observations" ("marketplace", "isbn", "observed_at", "status", "price", "currency", "offer_count", "offers", "lookup_id")
SELECT 'alibris', isbn, answered_at, lookup_status, price, CASE WHEN price IS NOT NULL THEN 'USD' END,
       CASE WHEN jsonb_typeof(offers) = 'array' THEN jsonb_array_length(offers) ELSE 0 END, offers, id
FROM "alibris_price_lookups"
WHERE answered_at IS NOT NULL AND reused_from IS NULL AND lookup_status IN ('completed', 'no_offers_available');--> statement-breakpoint
INSERT INTO "price_observations" ("marketplace", "isbn", "observed_at", "status", "price", "currency", "offer_count", "offers", "lookup_id")
SELECT 'pallet_iq', isbn, answered_at, lookup_status, winner_amazon_log_data_mm_val,
       CASE WHEN winner_amazon_log_data_mm_val IS NOT NULL THEN 'USD' END,
       CASE WHEN jsonb_typeof(offers) = 'array' THEN jsonb_array_length(offers) ELSE 0 END, offers, id
FROM "pallet_iq_price_lookups"
WHERE answered_at IS NOT NULL AND reused_from IS NULL AND lookup_status IN ('completed', 'no_offers_available');
