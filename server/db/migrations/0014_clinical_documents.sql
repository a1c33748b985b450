DROP TABLE "patient_cards" CASCADE;--> statement-breakpoint
DROP TABLE "appointment_summaries" CASCADE;--> statement-breakpoint
CREATE TABLE "appointment_summaries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"coach_id" uuid NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"content" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"blocker_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signed_by_id" uuid,
	"signed_at" timestamp(3) with time zone,
	"content_hash" text,
	"completed_at" timestamp(3) with time zone,
	"completed_by_id" uuid,
	"canceled_at" timestamp(3) with time zone,
	"author_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_summaries_status_check" CHECK ("appointment_summaries"."status" IN ('new', 'sent', 'completed', 'canceled')),
	CONSTRAINT "appointment_summaries_signed_check" CHECK ("appointment_summaries"."status" NOT IN ('sent', 'completed') OR ("appointment_summaries"."signed_at" IS NOT NULL AND "appointment_summaries"."content_hash" IS NOT NULL AND "appointment_summaries"."signed_by_id" IS NOT NULL)),
	CONSTRAINT "appointment_summaries_completed_check" CHECK (("appointment_summaries"."status" = 'completed') = ("appointment_summaries"."completed_at" IS NOT NULL)),
	CONSTRAINT "appointment_summaries_canceled_check" CHECK (("appointment_summaries"."status" = 'canceled') = ("appointment_summaries"."canceled_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "clinical_access_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"client_id" uuid NOT NULL,
	"document_type" text NOT NULL,
	"document_id" uuid NOT NULL,
	CONSTRAINT "clinical_access_log_type_check" CHECK ("clinical_access_log"."document_type" IN ('summary', 'patient_card'))
);
--> statement-breakpoint
CREATE TABLE "clinical_amendments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_type" text NOT NULL,
	"document_id" uuid NOT NULL,
	"author_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"reason" text NOT NULL,
	"text" text NOT NULL,
	"content_hash" text NOT NULL,
	CONSTRAINT "clinical_amendments_type_check" CHECK ("clinical_amendments"."document_type" IN ('summary', 'patient_card'))
);
--> statement-breakpoint
CREATE TABLE "patient_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"appointment_id" uuid NOT NULL,
	"coach_id" uuid NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"content" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"blocker_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signed_by_id" uuid,
	"signed_at" timestamp(3) with time zone,
	"content_hash" text,
	"completed_at" timestamp(3) with time zone,
	"completed_by_id" uuid,
	"canceled_at" timestamp(3) with time zone,
	"author_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_cards_status_check" CHECK ("patient_cards"."status" IN ('new', 'sent', 'completed', 'canceled')),
	CONSTRAINT "patient_cards_signed_check" CHECK ("patient_cards"."status" NOT IN ('sent', 'completed') OR ("patient_cards"."signed_at" IS NOT NULL AND "patient_cards"."content_hash" IS NOT NULL AND "patient_cards"."signed_by_id" IS NOT NULL)),
	CONSTRAINT "patient_cards_completed_check" CHECK (("patient_cards"."status" = 'completed') = ("patient_cards"."completed_at" IS NOT NULL)),
	CONSTRAINT "patient_cards_canceled_check" CHECK (("patient_cards"."status" = 'canceled') = ("patient_cards"."canceled_at" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "appointment_summaries" ADD CONSTRAINT "appointment_summaries_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_summaries" ADD CONSTRAINT "appointment_summaries_signed_by_id_users_id_fk" FOREIGN KEY ("signed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_summaries" ADD CONSTRAINT "appointment_summaries_completed_by_id_users_id_fk" FOREIGN KEY ("completed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_summaries" ADD CONSTRAINT "appointment_summaries_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinical_access_log" ADD CONSTRAINT "clinical_access_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinical_amendments" ADD CONSTRAINT "clinical_amendments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_signed_by_id_users_id_fk" FOREIGN KEY ("signed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_completed_by_id_users_id_fk" FOREIGN KEY ("completed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointment_summaries_appointment_key" ON "appointment_summaries" USING btree ("appointment_id");--> statement-breakpoint
CREATE INDEX "appointment_summaries_coach_status_idx" ON "appointment_summaries" USING btree ("coach_id","status");--> statement-breakpoint
CREATE INDEX "appointment_summaries_client_idx" ON "appointment_summaries" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "clinical_access_log_client_idx" ON "clinical_access_log" USING btree ("client_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clinical_amendments_document_idx" ON "clinical_amendments" USING btree ("document_type","document_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_cards_live_client_key" ON "patient_cards" USING btree ("client_id") WHERE "patient_cards"."status" <> 'canceled';--> statement-breakpoint
CREATE INDEX "patient_cards_coach_status_idx" ON "patient_cards" USING btree ("coach_id","status");--> statement-breakpoint
-- Amendments are append-only: an update or delete is refused by the database itself.
CREATE FUNCTION clinical_amendments_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'clinical_amendments are append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER clinical_amendments_append_only BEFORE UPDATE OR DELETE ON "clinical_amendments"
  FOR EACH ROW EXECUTE FUNCTION clinical_amendments_append_only();
