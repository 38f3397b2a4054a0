ALTER TABLE "jobs" ADD COLUMN "schedule_every_days" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "schedule_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "schedule_next_run_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "schedule_set_by" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "queued_by_schedule" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_schedule_set_by_users_id_fk" FOREIGN KEY ("schedule_set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_schedule_due_idx" ON "jobs" USING btree ("schedule_next_run_at") WHERE schedule_every_days IS NOT NULL AND NOT schedule_paused;