ALTER TABLE "attempt_counters" ADD COLUMN "members" text[];--> statement-breakpoint
CREATE INDEX "audit_events_actor_email_idx" ON "audit_events" USING btree ("actor_email","created_at");--> statement-breakpoint
CREATE INDEX "audit_events_target_id_idx" ON "audit_events" USING btree ("target_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_events_target_label_idx" ON "audit_events" USING btree ("target_label","created_at");--> statement-breakpoint
CREATE INDEX "audit_events_client_address_idx" ON "audit_events" USING btree ("client_address","created_at");--> statement-breakpoint
CREATE INDEX "audit_events_action_sort_idx" ON "audit_events" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_events_target_type_sort_idx" ON "audit_events" USING btree ("target_type","id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_email_trgm_idx" ON "audit_events" USING gin ("actor_email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_events_target_label_trgm_idx" ON "audit_events" USING gin ("target_label" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_events_client_address_trgm_idx" ON "audit_events" USING gin ("client_address" gin_trgm_ops);