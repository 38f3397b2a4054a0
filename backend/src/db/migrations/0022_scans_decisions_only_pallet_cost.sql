CREATE TABLE "scans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" integer NOT NULL,
	"client_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"isbn" varchar(13) NOT NULL,
	"user_id" uuid NOT NULL,
	"mark" varchar(8),
	"marked_at" timestamp with time zone,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "pallet_cost" double precision;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "decisions_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scans_job_client_idx" ON "scans" USING btree ("job_id","client_id");--> statement-breakpoint
CREATE INDEX "scans_job_scanned_idx" ON "scans" USING btree ("job_id","scanned_at");--> statement-breakpoint
CREATE INDEX "scans_bought_isbn_idx" ON "scans" USING btree ("isbn","marked_at") WHERE mark = 'bought';