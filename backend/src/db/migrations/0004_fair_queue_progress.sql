CREATE TABLE "job_progress" (
	"job_id" integer NOT NULL,
	"source" varchar(32) NOT NULL,
	"total" integer NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "job_progress_job_id_source_pk" PRIMARY KEY("job_id","source")
);
--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_queue_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_queue_idx";--> statement-breakpoint
DROP INDEX "biblio_price_lookups_queue_idx";--> statement-breakpoint
DROP INDEX "pallet_iq_price_lookups_queue_idx";--> statement-breakpoint
ALTER TABLE "job_progress" ADD CONSTRAINT "job_progress_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_progress_active_idx" ON "job_progress" USING btree ("source","job_id") WHERE processed < total;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_job_queue_idx" ON "abe_books_price_lookups" USING btree ("isbn_lookup_job_id","next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_job_queue_idx" ON "alibris_price_lookups" USING btree ("isbn_lookup_job_id","next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_job_queue_idx" ON "biblio_price_lookups" USING btree ("isbn_lookup_job_id","next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_job_queue_idx" ON "pallet_iq_price_lookups" USING btree ("isbn_lookup_job_id","next_attempt_at","id") WHERE lookup_status = 'queued';--> statement-breakpoint
-- Hand-added: counters for the jobs that exist already, counted once from their lookups.
INSERT INTO "job_progress" ("job_id", "source", "total", "processed")
SELECT isbn_lookup_job_id, 'abe_books', count(*)::int, count(*) FILTER (WHERE lookup_status IN ('completed', 'no_offers_available', 'failed'))::int FROM "abe_books_price_lookups" GROUP BY 1
UNION ALL
SELECT isbn_lookup_job_id, 'biblio', count(*)::int, count(*) FILTER (WHERE lookup_status IN ('completed', 'no_offers_available', 'failed'))::int FROM "biblio_price_lookups" GROUP BY 1
UNION ALL
SELECT isbn_lookup_job_id, 'alibris', count(*)::int, count(*) FILTER (WHERE lookup_status IN ('completed', 'no_offers_available', 'failed'))::int FROM "alibris_price_lookups" GROUP BY 1
UNION ALL
SELECT isbn_lookup_job_id, 'pallet_iq', count(*)::int, count(*) FILTER (WHERE lookup_status IN ('completed', 'no_offers_available', 'failed'))::int FROM "pallet_iq_price_lookups" GROUP BY 1;
