CREATE TABLE "worker_heartbeats" (
	"id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"beat_ms" integer NOT NULL,
	"lookups_in_flight" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_queued_created_idx" ON "abe_books_price_lookups" USING btree ("created_at") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_queued_created_idx" ON "alibris_price_lookups" USING btree ("created_at") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_queued_created_idx" ON "biblio_price_lookups" USING btree ("created_at") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_queued_created_idx" ON "pallet_iq_price_lookups" USING btree ("created_at") WHERE lookup_status = 'queued';