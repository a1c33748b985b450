CREATE TABLE "client_search_terms" (
	"client_id" uuid NOT NULL,
	"term" text NOT NULL,
	"created_at" timestamp(3) with time zone NOT NULL,
	"open" boolean NOT NULL,
	"coached_by_id" uuid
);
--> statement-breakpoint
ALTER TABLE "client_search_terms" ADD CONSTRAINT "client_search_terms_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_search_terms_client_idx" ON "client_search_terms" USING btree ("client_id");--> statement-breakpoint
-- A word-prefix search reads this index alone: the words in pattern order (LIKE 'word%' is a
-- range), each with the client, its creation time, whether its sessions are open and its coach.
CREATE INDEX "client_search_terms_term_idx" ON "client_search_terms"
  ("term" text_pattern_ops) INCLUDE ("client_id", "created_at", "open", "coached_by_id");
--> statement-breakpoint
-- The words of clients.search_text (already lower case), and the whole e-mail address, which a
-- search containing @ matches as one word; the separators are the same as searchWords in
-- server/features/clients/search.ts.
CREATE FUNCTION "sync_client_search_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "client_search_terms" WHERE "client_id" = OLD."id";
  END IF;
  INSERT INTO "client_search_terms" ("client_id", "term", "created_at", "open", "coached_by_id")
  SELECT DISTINCT NEW."id", word, NEW."created_at", NEW."sessions_closed_on" IS NULL, NEW."coached_by_id"
    FROM (SELECT regexp_split_to_table(NEW."search_text", '[[:space:].@,;:/()"''+-]+')
          UNION SELECT lower(NEW."email")) AS words (word)
   WHERE word <> '';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "clients_search_terms_insert" AFTER INSERT ON "clients"
  FOR EACH ROW EXECUTE FUNCTION "sync_client_search_terms"();
--> statement-breakpoint
CREATE TRIGGER "clients_search_terms_update" AFTER UPDATE OF "first_name", "last_name", "email", "insurer_code", "created_at", "sessions_closed_on", "coached_by_id" ON "clients"
  FOR EACH ROW EXECUTE FUNCTION "sync_client_search_terms"();
--> statement-breakpoint
INSERT INTO "client_search_terms" ("client_id", "term", "created_at", "open", "coached_by_id")
SELECT DISTINCT c."id", word, c."created_at", c."sessions_closed_on" IS NULL, c."coached_by_id"
  FROM "clients" c,
       LATERAL (SELECT regexp_split_to_table(c."search_text", '[[:space:].@,;:/()"''+-]+')
                UNION SELECT lower(c."email")) AS words (word)
 WHERE word <> '';
--> statement-breakpoint
-- Text searches read client_search_terms now; the phone search keeps its own trigram index.
DROP INDEX "clients_search_text_trgm_idx";
