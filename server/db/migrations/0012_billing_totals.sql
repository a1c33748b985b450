CREATE TABLE "billing_totals" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL,
	"pending_count" bigint DEFAULT 0 NOT NULL,
	"pending_cents" bigint DEFAULT 0 NOT NULL,
	"validation_failed_count" bigint DEFAULT 0 NOT NULL,
	"validation_failed_cents" bigint DEFAULT 0 NOT NULL,
	"approved_count" bigint DEFAULT 0 NOT NULL,
	"approved_cents" bigint DEFAULT 0 NOT NULL,
	"invoice_sent_count" bigint DEFAULT 0 NOT NULL,
	"invoice_sent_cents" bigint DEFAULT 0 NOT NULL,
	"cancelled_count" bigint DEFAULT 0 NOT NULL,
	"cancelled_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "billing_totals_single_row" CHECK ("billing_totals"."id" = 1)
);
--> statement-breakpoint
DROP INDEX "billable_items_coach_idx";--> statement-breakpoint
DROP INDEX "billable_items_client_idx";--> statement-breakpoint
DROP INDEX "billable_items_service_date_idx";--> statement-breakpoint
DROP INDEX "billable_items_status_idx";--> statement-breakpoint
DROP INDEX "billable_items_insurer_idx";--> statement-breakpoint
DROP INDEX "billable_items_payer_idx";--> statement-breakpoint
CREATE INDEX "billable_items_coach_status_idx" ON "billable_items" USING btree ("coach_id","status","service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "billable_items_client_status_idx" ON "billable_items" USING btree ("client_id","status","service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "billable_items_insurer_status_idx" ON "billable_items" USING btree ("insurer","status","service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "billable_items_payer_status_idx" ON "billable_items" USING btree ("payer_kind","status","service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "billable_items_service_date_idx" ON "billable_items" USING btree ("service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "billable_items_status_idx" ON "billable_items" USING btree ("status","service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "billable_items_insurer_idx" ON "billable_items" USING btree ("insurer","service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "billable_items_payer_idx" ON "billable_items" USING btree ("payer_kind","service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- Starts at the clock in microseconds, not 1: a row lost with a TRUNCATE (the seed's reset)
-- comes back with a generation no remembered filtered total was taken under.
INSERT INTO "billing_totals" ("id", "generation", "pending_count", "pending_cents", "validation_failed_count", "validation_failed_cents", "approved_count", "approved_cents", "invoice_sent_count", "invoice_sent_cents", "cancelled_count", "cancelled_cents")
SELECT 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint,
  count(*) FILTER (WHERE "status" = 'pending'), coalesce(sum("amount_cents") FILTER (WHERE "status" = 'pending'), 0),
  count(*) FILTER (WHERE "status" = 'validation_failed'), coalesce(sum("amount_cents") FILTER (WHERE "status" = 'validation_failed'), 0),
  count(*) FILTER (WHERE "status" = 'approved'), coalesce(sum("amount_cents") FILTER (WHERE "status" = 'approved'), 0),
  count(*) FILTER (WHERE "status" = 'invoice_sent'), coalesce(sum("amount_cents") FILTER (WHERE "status" = 'invoice_sent'), 0),
  count(*) FILTER (WHERE "status" = 'cancelled'), coalesce(sum("amount_cents") FILTER (WHERE "status" = 'cancelled'), 0)
FROM "billable_items";
--> statement-breakpoint
-- Adds one statement's change to the totals: its new rows count +1, its old rows -1 (an
-- update is both), summed once per statement from the transition tables, so a batch of
-- 1,000 items writes the row once. The single row serialises item writers from their first
-- item statement to their commit; one row cannot deadlock against itself.
CREATE FUNCTION "apply_billing_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added_status text[] := '{}';
  added_cents bigint[] := '{}';
  removed_status text[] := '{}';
  removed_cents bigint[] := '{}';
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(array_agg("status"), '{}'), coalesce(array_agg("amount_cents"::bigint), '{}')
      INTO added_status, added_cents FROM new_rows;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT coalesce(array_agg("status"), '{}'), coalesce(array_agg("amount_cents"::bigint), '{}')
      INTO removed_status, removed_cents FROM old_rows;
  END IF;
  INSERT INTO "billing_totals" AS t ("id", "generation", "pending_count", "pending_cents", "validation_failed_count", "validation_failed_cents", "approved_count", "approved_cents", "invoice_sent_count", "invoice_sent_cents", "cancelled_count", "cancelled_cents")
  SELECT 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint,
    coalesce(sum(n) FILTER (WHERE s = 'pending'), 0), coalesce(sum(c) FILTER (WHERE s = 'pending'), 0),
    coalesce(sum(n) FILTER (WHERE s = 'validation_failed'), 0), coalesce(sum(c) FILTER (WHERE s = 'validation_failed'), 0),
    coalesce(sum(n) FILTER (WHERE s = 'approved'), 0), coalesce(sum(c) FILTER (WHERE s = 'approved'), 0),
    coalesce(sum(n) FILTER (WHERE s = 'invoice_sent'), 0), coalesce(sum(c) FILTER (WHERE s = 'invoice_sent'), 0),
    coalesce(sum(n) FILTER (WHERE s = 'cancelled'), 0), coalesce(sum(c) FILTER (WHERE s = 'cancelled'), 0)
  FROM (
    SELECT s, 1 AS n, c FROM unnest(added_status, added_cents) AS a(s, c)
    UNION ALL
    SELECT s, -1, -c FROM unnest(removed_status, removed_cents) AS r(s, c)
  ) d
  ON CONFLICT ("id") DO UPDATE SET
    "generation" = t."generation" + 1,
    "pending_count" = t."pending_count" + excluded."pending_count",
    "pending_cents" = t."pending_cents" + excluded."pending_cents",
    "validation_failed_count" = t."validation_failed_count" + excluded."validation_failed_count",
    "validation_failed_cents" = t."validation_failed_cents" + excluded."validation_failed_cents",
    "approved_count" = t."approved_count" + excluded."approved_count",
    "approved_cents" = t."approved_cents" + excluded."approved_cents",
    "invoice_sent_count" = t."invoice_sent_count" + excluded."invoice_sent_count",
    "invoice_sent_cents" = t."invoice_sent_cents" + excluded."invoice_sent_cents",
    "cancelled_count" = t."cancelled_count" + excluded."cancelled_count",
    "cancelled_cents" = t."cancelled_cents" + excluded."cancelled_cents";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "billable_items_totals_insert" AFTER INSERT ON "billable_items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "apply_billing_totals"();
--> statement-breakpoint
CREATE TRIGGER "billable_items_totals_update" AFTER UPDATE ON "billable_items"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "apply_billing_totals"();
--> statement-breakpoint
CREATE TRIGGER "billable_items_totals_delete" AFTER DELETE ON "billable_items"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "apply_billing_totals"();
--> statement-breakpoint
-- A truncated item table has no totals: the next item write starts the row again.
CREATE FUNCTION "clear_billing_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "billing_totals";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "billable_items_totals_truncate" AFTER TRUNCATE ON "billable_items"
  FOR EACH STATEMENT EXECUTE FUNCTION "clear_billing_totals"();
