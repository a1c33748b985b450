CREATE TABLE "list_generation" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "list_generation_single_row" CHECK ("list_generation"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "list_generation" ("id", "value") VALUES (1, 0);
--> statement-breakpoint
-- Raises list_generation once per writing transaction, at its commit: the row triggers below
-- are deferred, so the row lock is held only while the transaction commits (concurrent
-- writers do not queue behind each other's remaining work), and the transaction-local
-- setting skips the update after the first row (a bulk insert bumps once).
CREATE FUNCTION "raise_list_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('sprechstunde.list_generation_raised', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('sprechstunde.list_generation_raised', 'on', true);
  UPDATE "list_generation" SET "value" = "value" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "clients_list_generation" AFTER INSERT OR UPDATE OR DELETE ON "clients"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_list_generation"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "appointments_list_generation" AFTER INSERT OR UPDATE OR DELETE ON "appointments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_list_generation"();
--> statement-breakpoint
CREATE TRIGGER "clients_list_generation_truncate" AFTER TRUNCATE ON "clients"
  FOR EACH STATEMENT EXECUTE FUNCTION "raise_list_generation"();
--> statement-breakpoint
CREATE TRIGGER "appointments_list_generation_truncate" AFTER TRUNCATE ON "appointments"
  FOR EACH STATEMENT EXECUTE FUNCTION "raise_list_generation"();
