DROP INDEX "clients_coached_by_idx";--> statement-breakpoint
DROP INDEX "clients_campaign_idx";--> statement-breakpoint
DROP INDEX "clients_insurer_idx";--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "client_insurer" text;--> statement-breakpoint
CREATE INDEX "appointments_insurer_start_idx" ON "appointments" USING btree ("client_insurer","start_date","id");--> statement-breakpoint
CREATE INDEX "appointments_live_type_insurer_idx" ON "appointments" USING btree ("appointment_type","client_insurer","start_date","id") WHERE "appointments"."cancelled_at" IS NULL;--> statement-breakpoint
CREATE INDEX "clients_open_created_idx" ON "clients" USING btree ("created_at","id") WHERE "clients"."sessions_closed_on" IS NULL;--> statement-breakpoint
-- appointments.client_insurer mirrors the client's insurer, so the appointment list filters
-- and counts by insurer on appointments alone (appointments_live_type_insurer_idx).
CREATE FUNCTION "appointments_set_client_insurer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.client_insurer := (SELECT insurer FROM clients WHERE id = NEW.client_id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "appointments_client_insurer" BEFORE INSERT OR UPDATE OF "client_id" ON "appointments"
  FOR EACH ROW EXECUTE FUNCTION "appointments_set_client_insurer"();
--> statement-breakpoint
CREATE FUNCTION "clients_sync_appointment_insurer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE appointments SET client_insurer = NEW.insurer WHERE client_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "clients_appointment_insurer" AFTER UPDATE OF "insurer" ON "clients"
  FOR EACH ROW WHEN (OLD.insurer IS DISTINCT FROM NEW.insurer)
  EXECUTE FUNCTION "clients_sync_appointment_insurer"();
--> statement-breakpoint
UPDATE "appointments" a SET "client_insurer" = c."insurer"
  FROM "clients" c WHERE c."id" = a."client_id" AND c."insurer" IS NOT NULL;
--> statement-breakpoint
-- Client list filters in the default order (newest first): a filtered page and its capped
-- count are walks of one index, the open-sessions and rejection filters checked in the index.
CREATE INDEX "clients_campaign_created_idx" ON "clients" USING btree ("campaign", "created_at", "id")
  INCLUDE ("sessions_closed_on", "rejection_reason_type");
--> statement-breakpoint
CREATE INDEX "clients_insurer_created_idx" ON "clients" USING btree ("insurer", "created_at", "id")
  INCLUDE ("sessions_closed_on", "rejection_reason_type");
--> statement-breakpoint
CREATE INDEX "clients_coached_by_created_idx" ON "clients" USING btree ("coached_by_id", "created_at", "id")
  INCLUDE ("sessions_closed_on");
