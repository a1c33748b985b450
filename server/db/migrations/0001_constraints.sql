-- What Drizzle cannot declare: extensions, the exclusion constraint, trigram search indexes.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- No two live (not cancelled) appointments of one coach overlap.
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_overlap"
  EXCLUDE USING gist ("coach_id" WITH =, tstzrange("start_date", "end_date", '[)') WITH &&)
  WHERE ("cancelled_at" IS NULL);
--> statement-breakpoint
-- Client search: name and e-mail by substring, phone numbers by their digits.
CREATE INDEX "clients_search_trgm_idx" ON "clients" USING gin (
  (lower("first_name" || ' ' || "last_name" || ' ' || coalesce("email", '') || ' ' || coalesce("insurer_code", ''))) gin_trgm_ops
);
--> statement-breakpoint
CREATE INDEX "clients_phone_trgm_idx" ON "clients" USING gin (
  (regexp_replace(coalesce("telephone", '') || ',' || coalesce("additional_telephone_numbers", ''), '[^0-9]', '', 'g')) gin_trgm_ops
);
