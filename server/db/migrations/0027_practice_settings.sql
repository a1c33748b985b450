CREATE TABLE "practice_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"street" text NOT NULL,
	"postal_code" text NOT NULL,
	"city" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"managing_person" text,
	"register_court" text,
	"register_number" text,
	"vat_id" text,
	"tax_number" text,
	"iban" text NOT NULL,
	"dpo_name" text,
	"dpo_email" text,
	"supervisory_authority" text,
	"updated_by_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "practice_settings_single_row" CHECK ("practice_settings"."id" = 1),
	CONSTRAINT "practice_settings_tax_id" CHECK ("practice_settings"."vat_id" IS NOT NULL OR "practice_settings"."tax_number" IS NOT NULL)
);
--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;