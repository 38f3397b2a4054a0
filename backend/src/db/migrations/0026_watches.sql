CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"watch_id" integer,
	"isbn" varchar(13) NOT NULL,
	"job_id" integer,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"emailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "watch_digests" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_states" (
	"watch_id" integer NOT NULL,
	"isbn" varchar(13) NOT NULL,
	"armed" boolean DEFAULT true NOT NULL,
	"last_fired_at" timestamp with time zone,
	CONSTRAINT "watch_states_watch_id_isbn_pk" PRIMARY KEY("watch_id","isbn")
);
--> statement-breakpoint
CREATE TABLE "watches" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"isbn" varchar(13),
	"job_id" integer,
	"name" varchar(255),
	"conditions" jsonb NOT NULL,
	"email" boolean DEFAULT true NOT NULL,
	"armed" boolean DEFAULT true NOT NULL,
	"last_fired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watches_book_xor_job" CHECK (("watches"."isbn" IS NULL) <> ("watches"."job_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_digests" ADD CONSTRAINT "watch_digests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_states" ADD CONSTRAINT "watch_states_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE read_at IS NULL;--> statement-breakpoint
CREATE INDEX "notifications_unsent_idx" ON "notifications" USING btree ("user_id","id") WHERE emailed_at IS NULL;--> statement-breakpoint
CREATE INDEX "watch_states_disarmed_idx" ON "watch_states" USING btree ("watch_id") WHERE NOT armed;--> statement-breakpoint
CREATE INDEX "watches_isbn_idx" ON "watches" USING btree ("isbn") WHERE isbn IS NOT NULL;--> statement-breakpoint
CREATE INDEX "watches_job_idx" ON "watches" USING btree ("job_id") WHERE job_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "watches_user_idx" ON "watches" USING btree ("user_id","id");