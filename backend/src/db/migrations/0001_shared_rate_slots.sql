CREATE TABLE "marketplace_rate_slots" (
	"marketplace" varchar(32) PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
