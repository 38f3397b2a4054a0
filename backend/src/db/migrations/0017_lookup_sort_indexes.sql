DROP INDEX "abe_books_price_lookups_status_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_status_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_status_idx";--> statement-breakpoint
DROP INDEX "biblio_price_lookups_status_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_status_idx";--> statement-breakpoint
DROP INDEX "pallet_iq_price_lookups_status_idx";--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_isbn_sort_idx" ON "abe_books_price_lookups" USING btree ("isbn","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_listing_url_sort_idx" ON "abe_books_price_lookups" USING btree ("listing_url","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_listing_price_sort_idx" ON "abe_books_price_lookups" USING btree ("listing_price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_total_listing_price_sort_idx" ON "abe_books_price_lookups" USING btree ("total_listing_price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_quantity_sort_idx" ON "abe_books_price_lookups" USING btree ("quantity","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_listing_condition_sort_idx" ON "abe_books_price_lookups" USING btree ("listing_condition","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_item_condition_sort_idx" ON "abe_books_price_lookups" USING btree ("item_condition","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_seller_rating_sort_idx" ON "abe_books_price_lookups" USING btree ("seller_rating","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_vendor_price_sort_idx" ON "abe_books_price_lookups" USING btree ("vendor_price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_vendor_id_sort_idx" ON "abe_books_price_lookups" USING btree ("vendor_id","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_updated_at_sort_idx" ON "abe_books_price_lookups" USING btree ("updated_at","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_input_filename_sort_idx" ON "abe_books_price_lookups" USING btree ("input_filename","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_isbn_lookup_job_id_sort_idx" ON "abe_books_price_lookups" USING btree ("isbn_lookup_job_id","id","lookup_status");--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_lookup_status_sort_idx" ON "abe_books_price_lookups" USING btree ("lookup_status","id");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_isbn_sort_idx" ON "alibris_price_lookups" USING btree ("isbn","id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_input_filename_sort_idx" ON "alibris_price_lookups" USING btree ("input_filename","id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_isbn_lookup_job_id_sort_idx" ON "alibris_price_lookups" USING btree ("isbn_lookup_job_id","id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_title_sort_idx" ON "alibris_price_lookups" USING btree ("title","id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_sellername_sort_idx" ON "alibris_price_lookups" USING btree ("sellername","id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_condition_sort_idx" ON "alibris_price_lookups" USING btree ("condition","id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_price_sort_idx" ON "alibris_price_lookups" USING btree ("price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_sellercountry_sort_idx" ON "alibris_price_lookups" USING btree ("sellercountry","id","lookup_status");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_lookup_status_sort_idx" ON "alibris_price_lookups" USING btree ("lookup_status","id");--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_updated_at_sort_idx" ON "alibris_price_lookups" USING btree ("updated_at","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_isbn_sort_idx" ON "amazon_price_lookups" USING btree ("isbn","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_asin_sort_idx" ON "amazon_price_lookups" USING btree ("asin","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_title_sort_idx" ON "amazon_price_lookups" USING btree ("title","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_sales_rank_sort_idx" ON "amazon_price_lookups" USING btree ("sales_rank","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_lowest_used_price_sort_idx" ON "amazon_price_lookups" USING btree ("lowest_used_price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_lowest_new_price_sort_idx" ON "amazon_price_lookups" USING btree ("lowest_new_price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_buy_box_price_sort_idx" ON "amazon_price_lookups" USING btree ("buy_box_price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_used_offer_count_sort_idx" ON "amazon_price_lookups" USING btree ("used_offer_count","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_lookup_status_sort_idx" ON "amazon_price_lookups" USING btree ("lookup_status","id");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_updated_at_sort_idx" ON "amazon_price_lookups" USING btree ("updated_at","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_input_filename_sort_idx" ON "amazon_price_lookups" USING btree ("input_filename","id","lookup_status");--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_isbn_lookup_job_id_sort_idx" ON "amazon_price_lookups" USING btree ("isbn_lookup_job_id","id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_isbn_sort_idx" ON "biblio_price_lookups" USING btree ("isbn","id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_book_link_sort_idx" ON "biblio_price_lookups" USING btree ("book_link","id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_product_id_sort_idx" ON "biblio_price_lookups" USING btree ("product_id","id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_price_sort_idx" ON "biblio_price_lookups" USING btree ("price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_updated_at_sort_idx" ON "biblio_price_lookups" USING btree ("updated_at","id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_input_filename_sort_idx" ON "biblio_price_lookups" USING btree ("input_filename","id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_isbn_lookup_job_id_sort_idx" ON "biblio_price_lookups" USING btree ("isbn_lookup_job_id","id","lookup_status");--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_lookup_status_sort_idx" ON "biblio_price_lookups" USING btree ("lookup_status","id");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_isbn_sort_idx" ON "ebay_price_lookups" USING btree ("isbn","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_title_sort_idx" ON "ebay_price_lookups" USING btree ("title","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_price_sort_idx" ON "ebay_price_lookups" USING btree ("price","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_shipping_cost_sort_idx" ON "ebay_price_lookups" USING btree ("shipping_cost","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_condition_sort_idx" ON "ebay_price_lookups" USING btree ("condition","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_seller_username_sort_idx" ON "ebay_price_lookups" USING btree ("seller_username","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_seller_feedback_percentage_sort_idx" ON "ebay_price_lookups" USING btree ("seller_feedback_percentage","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_listing_url_sort_idx" ON "ebay_price_lookups" USING btree ("listing_url","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_lookup_status_sort_idx" ON "ebay_price_lookups" USING btree ("lookup_status","id");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_updated_at_sort_idx" ON "ebay_price_lookups" USING btree ("updated_at","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_input_filename_sort_idx" ON "ebay_price_lookups" USING btree ("input_filename","id","lookup_status");--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_isbn_lookup_job_id_sort_idx" ON "ebay_price_lookups" USING btree ("isbn_lookup_job_id","id","lookup_status");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_isbn_sort_idx" ON "pallet_iq_price_lookups" USING btree ("isbn","id","lookup_status");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_winner_amazon_log_data_mp_decisi_fe554e" ON "pallet_iq_price_lookups" USING btree ("winner_amazon_log_data_mp_decision","id","lookup_status");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_winner_amazon_log_data_mm_val_sort_idx" ON "pallet_iq_price_lookups" USING btree ("winner_amazon_log_data_mm_val","id","lookup_status");--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_lookup_status_sort_idx" ON "pallet_iq_price_lookups" USING btree ("lookup_status","id");