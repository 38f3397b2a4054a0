-- AbeBooks bounds its commission per item (min US$0.50, max US$40); other marketplaces have no bound (null).
ALTER TABLE "fee_schedules" ADD COLUMN "min_commission" double precision;--> statement-breakpoint
ALTER TABLE "fee_schedules" ADD COLUMN "max_commission" double precision;