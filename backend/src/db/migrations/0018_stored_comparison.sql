CREATE TABLE "comparison_rows" (
	"job_id" integer NOT NULL,
	"row_id" bigint NOT NULL,
	"isbn" varchar(13) NOT NULL,
	"best_price" double precision,
	"best_source" text,
	"spread" double precision,
	CONSTRAINT "comparison_rows_job_id_row_id_pk" PRIMARY KEY("job_id","row_id")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "comparison_stored" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "comparison_rows" ADD CONSTRAINT "comparison_rows_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "comparison_rows_isbn_idx" ON "comparison_rows" USING btree ("job_id","isbn");--> statement-breakpoint
CREATE INDEX "comparison_rows_best_price_idx" ON "comparison_rows" USING btree ("job_id","best_price","row_id");--> statement-breakpoint
CREATE INDEX "comparison_rows_best_price_desc_idx" ON "comparison_rows" USING btree ("job_id","best_price" DESC NULLS LAST,"row_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "comparison_rows_best_source_idx" ON "comparison_rows" USING btree ("job_id","best_source","row_id");--> statement-breakpoint
CREATE INDEX "comparison_rows_best_source_desc_idx" ON "comparison_rows" USING btree ("job_id","best_source" DESC NULLS LAST,"row_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "comparison_rows_spread_idx" ON "comparison_rows" USING btree ("job_id","spread","row_id");--> statement-breakpoint
CREATE INDEX "comparison_rows_spread_desc_idx" ON "comparison_rows" USING btree ("job_id","spread" DESC NULLS LAST,"row_id" DESC NULLS FIRST);