CREATE TABLE "book_velocity" (
	"isbn" varchar(13) PRIMARY KEY NOT NULL,
	"source" varchar(16) NOT NULL,
	"observations" integer NOT NULL,
	"rank_drops_30" integer NOT NULL,
	"rank_drops_90" integer NOT NULL,
	"rank_drops_180" integer NOT NULL,
	"avg_rank_90" double precision,
	"avg_rank_180" double precision,
	"sale_days_180" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keepa_books" (
	"isbn" varchar(13) PRIMARY KEY NOT NULL,
	"found" boolean NOT NULL,
	"asin" varchar(10),
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keepa_tokens" (
	"id" integer PRIMARY KEY NOT NULL,
	"tokens_left" double precision NOT NULL,
	"refill_rate" double precision NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "keepa_books_fetched_idx" ON "keepa_books" USING btree ("fetched_at");