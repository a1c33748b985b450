CREATE TABLE "billing_dismissed_appointments" (
	"appointment_id" uuid PRIMARY KEY NOT NULL,
	"dismissed_by_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "billable_items_service_date_idx";--> statement-breakpoint
DROP INDEX "billable_items_status_idx";--> statement-breakpoint
DROP INDEX "billable_items_coach_idx";--> statement-breakpoint
DROP INDEX "billable_items_client_idx";--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "client_type" text;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "sponsor_pays" boolean;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "no_show" boolean;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "cancelled_late" boolean;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "valid_from" date;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "valid_to" date;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "vat_treatment" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "vat_exemption_reason" text;--> statement-breakpoint
ALTER TABLE "billing_rules" ADD COLUMN "payer_kind" text DEFAULT 'client' NOT NULL;--> statement-breakpoint
ALTER TABLE "billable_items" ADD COLUMN "billing_rule_version" integer;--> statement-breakpoint
ALTER TABLE "billable_items" ADD COLUMN "occasion" text DEFAULT 'completed' NOT NULL;--> statement-breakpoint
ALTER TABLE "billable_items" ADD COLUMN "vat_treatment" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "billable_items" ADD COLUMN "vat_rate_percent" integer DEFAULT 19 NOT NULL;--> statement-breakpoint
ALTER TABLE "billable_items" ADD COLUMN "vat_exemption_reason" text;--> statement-breakpoint
ALTER TABLE "billable_items" ADD COLUMN "payer_kind" text DEFAULT 'client' NOT NULL;--> statement-breakpoint
ALTER TABLE "billable_items" ADD COLUMN "cancelled_by_system" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_dismissed_appointments" ADD CONSTRAINT "billing_dismissed_appointments_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_dismissed_appointments" ADD CONSTRAINT "billing_dismissed_appointments_dismissed_by_id_users_id_fk" FOREIGN KEY ("dismissed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billable_items_insurer_idx" ON "billable_items" USING btree ("insurer","service_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billable_items_payer_idx" ON "billable_items" USING btree ("payer_kind","service_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billable_items_appointment_idx" ON "billable_items" USING btree ("appointment_id");--> statement-breakpoint
CREATE INDEX "billable_items_service_date_idx" ON "billable_items" USING btree ("service_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billable_items_status_idx" ON "billable_items" USING btree ("status","service_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billable_items_coach_idx" ON "billable_items" USING btree ("coach_id","service_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billable_items_client_idx" ON "billable_items" USING btree ("client_id","service_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "billing_rules" ADD CONSTRAINT "billing_rules_version_check" CHECK ("billing_rules"."version" >= 1);--> statement-breakpoint
ALTER TABLE "billing_rules" ADD CONSTRAINT "billing_rules_client_type_check" CHECK ("billing_rules"."client_type" IS NULL OR "billing_rules"."client_type" IN ('self', 'relative'));--> statement-breakpoint
ALTER TABLE "billing_rules" ADD CONSTRAINT "billing_rules_payer_check" CHECK ("billing_rules"."payer_kind" IN ('client', 'sponsor', 'statutory_insurer', 'private_insurer'));--> statement-breakpoint
ALTER TABLE "billing_rules" ADD CONSTRAINT "billing_rules_vat_check" CHECK (("billing_rules"."vat_treatment" = 'standard' AND "billing_rules"."vat_exemption_reason" IS NULL)
        OR ("billing_rules"."vat_treatment" = 'exempt' AND "billing_rules"."vat_exemption_reason" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "billing_rules" ADD CONSTRAINT "billing_rules_valid_range_check" CHECK ("billing_rules"."valid_from" IS NULL OR "billing_rules"."valid_to" IS NULL OR "billing_rules"."valid_from" <= "billing_rules"."valid_to");--> statement-breakpoint
ALTER TABLE "billable_items" ADD CONSTRAINT "billable_items_occasion_check" CHECK ("billable_items"."occasion" IN ('completed', 'no_show', 'cancelled_late'));--> statement-breakpoint
ALTER TABLE "billable_items" ADD CONSTRAINT "billable_items_payer_check" CHECK ("billable_items"."payer_kind" IN ('client', 'sponsor', 'statutory_insurer', 'private_insurer'));--> statement-breakpoint
ALTER TABLE "billable_items" ADD CONSTRAINT "billable_items_vat_check" CHECK (("billable_items"."vat_treatment" = 'standard' AND "billable_items"."vat_rate_percent" = 19 AND "billable_items"."vat_exemption_reason" IS NULL)
        OR ("billable_items"."vat_treatment" = 'exempt' AND "billable_items"."vat_rate_percent" = 0 AND "billable_items"."vat_exemption_reason" IS NOT NULL));