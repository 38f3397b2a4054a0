DROP INDEX "abe_books_price_lookups_listing_url_sort_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_listing_price_sort_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_total_listing_price_sort_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_quantity_sort_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_listing_condition_sort_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_item_condition_sort_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_seller_rating_sort_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_vendor_price_sort_idx";--> statement-breakpoint
DROP INDEX "abe_books_price_lookups_vendor_id_sort_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_title_sort_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_sellername_sort_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_condition_sort_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_price_sort_idx";--> statement-breakpoint
DROP INDEX "alibris_price_lookups_sellercountry_sort_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_asin_sort_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_title_sort_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_sales_rank_sort_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_lowest_used_price_sort_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_lowest_new_price_sort_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_buy_box_price_sort_idx";--> statement-breakpoint
DROP INDEX "amazon_price_lookups_used_offer_count_sort_idx";--> statement-breakpoint
DROP INDEX "biblio_price_lookups_book_link_sort_idx";--> statement-breakpoint
DROP INDEX "biblio_price_lookups_product_id_sort_idx";--> statement-breakpoint
DROP INDEX "biblio_price_lookups_price_sort_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_title_sort_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_price_sort_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_shipping_cost_sort_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_condition_sort_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_seller_username_sort_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_seller_feedback_percentage_sort_idx";--> statement-breakpoint
DROP INDEX "ebay_price_lookups_listing_url_sort_idx";--> statement-breakpoint
DROP INDEX "pallet_iq_price_lookups_winner_amazon_log_data_mp_decisi_fe554e";--> statement-breakpoint
DROP INDEX "pallet_iq_price_lookups_winner_amazon_log_data_mm_val_sort_idx";--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_listing_url_sort_idx" ON "abe_books_price_lookups" USING btree ("listing_url","id","lookup_status") WHERE "abe_books_price_lookups"."listing_url" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_listing_price_sort_idx" ON "abe_books_price_lookups" USING btree ("listing_price","id","lookup_status") WHERE "abe_books_price_lookups"."listing_price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_total_listing_price_sort_idx" ON "abe_books_price_lookups" USING btree ("total_listing_price","id","lookup_status") WHERE "abe_books_price_lookups"."total_listing_price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_quantity_sort_idx" ON "abe_books_price_lookups" USING btree ("quantity","id","lookup_status") WHERE "abe_books_price_lookups"."quantity" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_listing_condition_sort_idx" ON "abe_books_price_lookups" USING btree ("listing_condition","id","lookup_status") WHERE "abe_books_price_lookups"."listing_condition" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_item_condition_sort_idx" ON "abe_books_price_lookups" USING btree ("item_condition","id","lookup_status") WHERE "abe_books_price_lookups"."item_condition" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_seller_rating_sort_idx" ON "abe_books_price_lookups" USING btree ("seller_rating","id","lookup_status") WHERE "abe_books_price_lookups"."seller_rating" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_vendor_price_sort_idx" ON "abe_books_price_lookups" USING btree ("vendor_price","id","lookup_status") WHERE "abe_books_price_lookups"."vendor_price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "abe_books_price_lookups_vendor_id_sort_idx" ON "abe_books_price_lookups" USING btree ("vendor_id","id","lookup_status") WHERE "abe_books_price_lookups"."vendor_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_title_sort_idx" ON "alibris_price_lookups" USING btree ("title","id","lookup_status") WHERE "alibris_price_lookups"."title" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_sellername_sort_idx" ON "alibris_price_lookups" USING btree ("sellername","id","lookup_status") WHERE "alibris_price_lookups"."sellername" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_condition_sort_idx" ON "alibris_price_lookups" USING btree ("condition","id","lookup_status") WHERE "alibris_price_lookups"."condition" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_price_sort_idx" ON "alibris_price_lookups" USING btree ("price","id","lookup_status") WHERE "alibris_price_lookups"."price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alibris_price_lookups_sellercountry_sort_idx" ON "alibris_price_lookups" USING btree ("sellercountry","id","lookup_status") WHERE "alibris_price_lookups"."sellercountry" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_asin_sort_idx" ON "amazon_price_lookups" USING btree ("asin","id","lookup_status") WHERE "amazon_price_lookups"."asin" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_title_sort_idx" ON "amazon_price_lookups" USING btree ("title","id","lookup_status") WHERE "amazon_price_lookups"."title" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_sales_rank_sort_idx" ON "amazon_price_lookups" USING btree ("sales_rank","id","lookup_status") WHERE "amazon_price_lookups"."sales_rank" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_lowest_used_price_sort_idx" ON "amazon_price_lookups" USING btree ("lowest_used_price","id","lookup_status") WHERE "amazon_price_lookups"."lowest_used_price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_lowest_new_price_sort_idx" ON "amazon_price_lookups" USING btree ("lowest_new_price","id","lookup_status") WHERE "amazon_price_lookups"."lowest_new_price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_buy_box_price_sort_idx" ON "amazon_price_lookups" USING btree ("buy_box_price","id","lookup_status") WHERE "amazon_price_lookups"."buy_box_price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "amazon_price_lookups_used_offer_count_sort_idx" ON "amazon_price_lookups" USING btree ("used_offer_count","id","lookup_status") WHERE "amazon_price_lookups"."used_offer_count" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_book_link_sort_idx" ON "biblio_price_lookups" USING btree ("book_link","id","lookup_status") WHERE "biblio_price_lookups"."book_link" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_product_id_sort_idx" ON "biblio_price_lookups" USING btree ("product_id","id","lookup_status") WHERE "biblio_price_lookups"."product_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "biblio_price_lookups_price_sort_idx" ON "biblio_price_lookups" USING btree ("price","id","lookup_status") WHERE "biblio_price_lookups"."price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_title_sort_idx" ON "ebay_price_lookups" USING btree ("title","id","lookup_status") WHERE "ebay_price_lookups"."title" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_price_sort_idx" ON "ebay_price_lookups" USING btree ("price","id","lookup_status") WHERE "ebay_price_lookups"."price" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_shipping_cost_sort_idx" ON "ebay_price_lookups" USING btree ("shipping_cost","id","lookup_status") WHERE "ebay_price_lookups"."shipping_cost" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_condition_sort_idx" ON "ebay_price_lookups" USING btree ("condition","id","lookup_status") WHERE "ebay_price_lookups"."condition" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_seller_username_sort_idx" ON "ebay_price_lookups" USING btree ("seller_username","id","lookup_status") WHERE "ebay_price_lookups"."seller_username" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_seller_feedback_percentage_sort_idx" ON "ebay_price_lookups" USING btree ("seller_feedback_percentage","id","lookup_status") WHERE "ebay_price_lookups"."seller_feedback_percentage" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ebay_price_lookups_listing_url_sort_idx" ON "ebay_price_lookups" USING btree ("listing_url","id","lookup_status") WHERE "ebay_price_lookups"."listing_url" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_winner_amazon_log_data_mp_decisi_fe554e" ON "pallet_iq_price_lookups" USING btree ("winner_amazon_log_data_mp_decision","id","lookup_status") WHERE "pallet_iq_price_lookups"."winner_amazon_log_data_mp_decision" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "pallet_iq_price_lookups_winner_amazon_log_data_mm_val_sort_idx" ON "pallet_iq_price_lookups" USING btree ("winner_amazon_log_data_mm_val","id","lookup_status") WHERE "pallet_iq_price_lookups"."winner_amazon_log_data_mm_val" IS NOT NULL;