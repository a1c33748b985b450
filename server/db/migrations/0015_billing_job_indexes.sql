CREATE INDEX "appointments_end_idx" ON "appointments" USING btree ("end_date","id");--> statement-breakpoint
CREATE INDEX "appointments_updated_idx" ON "appointments" USING btree ("updated_at");