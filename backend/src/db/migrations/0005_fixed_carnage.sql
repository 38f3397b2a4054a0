CREATE INDEX "abe_books_price_lookups_job_isbn_idx" ON "abe_books_price_lookups" USING btree ("isbn_lookup_job_id","isbn");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_job_isbn_idx" ON "alibris_price_lookups" USING btree ("isbn_lookup_job_id","isbn");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_job_isbn_idx" ON "biblio_price_lookups" USING btree ("isbn_lookup_job_id","isbn");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_job_isbn_idx" ON "pallet_iq_price_lookups" USING btree ("isbn_lookup_job_id","isbn");