CREATE TABLE "billable_item_api" (
	"item_id" uuid PRIMARY KEY NOT NULL,
	"body" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billable_item_api" ADD CONSTRAINT "billable_item_api_item_id_billable_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."billable_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The contract's BillableItem (openapi/product.yaml) from an item row and the names of its
-- client and coach, as compact JSON (row_to_json writes no spaces; a list page is mostly these
-- bytes). Instants as the API writes them everywhere (toISOString: UTC, milliseconds, Z); the
-- columns are timestamp(3), so no digit is cut.
CREATE FUNCTION "billable_item_api_body"(i "billable_items", client_first text, client_last text, coach_first text, coach_last text)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT row_to_json(r)::text FROM (SELECT
    i.id AS "id",
    i.appointment_id AS "appointmentId",
    i.client_id AS "clientId",
    i.coach_id AS "coachId",
    (SELECT p FROM (SELECT i.client_id AS "id", client_first AS "firstName", client_last AS "lastName") p) AS "client",
    (SELECT p FROM (SELECT i.coach_id AS "id", coach_first AS "firstName", coach_last AS "lastName") p) AS "coach",
    i.appointment_type AS "appointmentType",
    i.occasion AS "occasion",
    i.billing_rule_id AS "billingRuleId",
    i.billing_rule_version AS "billingRuleVersion",
    i.description AS "description",
    i.amount_cents AS "amountCents",
    i.currency AS "currency",
    i.vat_treatment AS "vatTreatment",
    i.vat_rate_percent AS "vatRatePercent",
    i.vat_exemption_reason AS "vatExemptionReason",
    i.payer_kind AS "payerKind",
    i.insurer AS "insurer",
    i.service_date AS "serviceDate",
    i.status AS "status",
    i.validation_errors AS "validationErrors",
    to_char(i.approved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "approvedAt",
    to_char(i.invoice_sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "invoiceSentAt",
    to_char(i.cancelled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "cancelledAt",
    to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
    to_char(i.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"
  ) r
$$;
--> statement-breakpoint
-- Once per statement from its transition table, so a batch of 1,000 items writes its bodies
-- in one INSERT.
CREATE FUNCTION "billable_item_api_write"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "billable_item_api" ("item_id", "body")
  SELECT n.id, "billable_item_api_body"(n, c.first_name, c.last_name, co.first_name, co.last_name)
    FROM new_rows n
    JOIN "clients" c ON c.id = n.client_id
    JOIN "coaches" co ON co.id = n.coach_id
  ON CONFLICT ("item_id") DO UPDATE SET "body" = excluded."body";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "billable_items_api_insert" AFTER INSERT ON "billable_items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "billable_item_api_write"();
--> statement-breakpoint
CREATE TRIGGER "billable_items_api_update" AFTER UPDATE ON "billable_items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "billable_item_api_write"();
--> statement-breakpoint
-- A client's or coach's new name reaches their items' bodies (only when a name changed).
CREATE FUNCTION "billable_item_api_rename"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Two statements, not one with an OR, so each walks its index on client_id or coach_id.
  IF TG_TABLE_NAME = 'clients' THEN
    UPDATE "billable_item_api" a
       SET "body" = "billable_item_api_body"(i, c.first_name, c.last_name, co.first_name, co.last_name)
      FROM "billable_items" i
      JOIN "clients" c ON c.id = i.client_id
      JOIN "coaches" co ON co.id = i.coach_id
     WHERE a.item_id = i.id AND i.client_id = NEW.id;
  ELSE
    UPDATE "billable_item_api" a
       SET "body" = "billable_item_api_body"(i, c.first_name, c.last_name, co.first_name, co.last_name)
      FROM "billable_items" i
      JOIN "clients" c ON c.id = i.client_id
      JOIN "coaches" co ON co.id = i.coach_id
     WHERE a.item_id = i.id AND i.coach_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "clients_billable_item_api" AFTER UPDATE OF "first_name", "last_name" ON "clients"
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION "billable_item_api_rename"();
--> statement-breakpoint
CREATE TRIGGER "coaches_billable_item_api" AFTER UPDATE OF "first_name", "last_name" ON "coaches"
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION "billable_item_api_rename"();
--> statement-breakpoint
INSERT INTO "billable_item_api" ("item_id", "body")
SELECT i.id, "billable_item_api_body"(i, c.first_name, c.last_name, co.first_name, co.last_name)
  FROM "billable_items" i
  JOIN "clients" c ON c.id = i.client_id
  JOIN "coaches" co ON co.id = i.coach_id;
