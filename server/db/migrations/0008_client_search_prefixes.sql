CREATE TABLE "client_search_prefixes" (
	"client_id" uuid NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp(3) with time zone NOT NULL,
	"open" boolean NOT NULL,
	"coached_by_id" uuid
);
--> statement-breakpoint
ALTER TABLE "client_search_prefixes" ADD CONSTRAINT "client_search_prefixes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_search_prefixes_client_idx" ON "client_search_prefixes" USING btree ("client_id");--> statement-breakpoint
-- The words' starts, once per client: up to SEARCH_PREFIX_LENGTH (schema/core.ts) letters of
-- each of its client_search_terms rows, written by the same trigger, in the same statement.
CREATE OR REPLACE FUNCTION "sync_client_search_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "client_search_terms" WHERE "client_id" = OLD."id";
    DELETE FROM "client_search_prefixes" WHERE "client_id" = OLD."id";
  END IF;
  INSERT INTO "client_search_terms" ("client_id", "term", "created_at", "open", "coached_by_id")
  SELECT DISTINCT NEW."id", word, NEW."created_at", NEW."sessions_closed_on" IS NULL, NEW."coached_by_id"
    FROM (SELECT regexp_split_to_table(NEW."search_text", '[[:space:].@,;:/()"''+-]+')
          UNION SELECT lower(NEW."email")) AS words (word)
   WHERE word <> '';
  INSERT INTO "client_search_prefixes" ("client_id", "prefix", "created_at", "open", "coached_by_id")
  SELECT DISTINCT NEW."id", left(t."term", n), NEW."created_at", NEW."sessions_closed_on" IS NULL, NEW."coached_by_id"
    FROM "client_search_terms" t, generate_series(1, 8) n
   WHERE t."client_id" = NEW."id" AND n <= length(t."term");
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "client_search_prefixes" ("client_id", "prefix", "created_at", "open", "coached_by_id")
SELECT DISTINCT t."client_id", left(t."term", n), t."created_at", t."open", t."coached_by_id"
  FROM "client_search_terms" t, generate_series(1, 8) n
 WHERE n <= length(t."term");
--> statement-breakpoint
-- A one-word search reads this index alone, in the list's order: equal prefix, then creation
-- time and id, with what the search filters by.
CREATE INDEX "client_search_prefixes_prefix_idx" ON "client_search_prefixes"
  ("prefix", "created_at", "client_id") INCLUDE ("open", "coached_by_id");
