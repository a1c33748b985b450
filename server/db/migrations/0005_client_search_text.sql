ALTER TABLE "clients" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("first_name" || ' ' || "last_name" || ' ' || coalesce("email", '') || ' ' || coalesce("insurer_code", ''))) STORED;--> statement-breakpoint
CREATE INDEX "clients_search_text_trgm_idx" ON "clients" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The search matches the stored column now; the expression index of 0001 is no longer used.
DROP INDEX "clients_search_trgm_idx";
