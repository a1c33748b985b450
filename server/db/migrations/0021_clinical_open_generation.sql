CREATE TABLE "clinical_open_generation" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "clinical_open_generation_single_row" CHECK ("clinical_open_generation"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "clinical_open_generation" ("id", "value") VALUES (1, 0);
--> statement-breakpoint
-- Raised once per writing transaction, at its commit (as list_generation, migration 0006):
-- deferred row triggers on the open work tables, skipped after the first row.
CREATE FUNCTION "raise_clinical_open_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('sprechstunde.clinical_open_generation_raised', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('sprechstunde.clinical_open_generation_raised', 'on', true);
  UPDATE "clinical_open_generation" SET "value" = "value" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "clinical_open_summaries_generation" AFTER INSERT OR UPDATE OR DELETE ON "clinical_open_summaries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_clinical_open_generation"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "clinical_open_patient_cards_generation" AFTER INSERT OR UPDATE OR DELETE ON "clinical_open_patient_cards"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_clinical_open_generation"();
