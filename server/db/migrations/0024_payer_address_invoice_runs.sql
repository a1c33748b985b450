CREATE TABLE "invoice_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"request" jsonb NOT NULL,
	"payer_count" integer NOT NULL,
	"due_item_count" integer NOT NULL,
	"item_count" integer DEFAULT 0 NOT NULL,
	"invoice_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"requested_by_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp(3) with time zone,
	CONSTRAINT "invoice_runs_status_check" CHECK ("invoice_runs"."status" IN ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "street" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "country" text DEFAULT 'DE' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "invoice_email" text;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "street" text;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "country" text DEFAULT 'DE' NOT NULL;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "invoice_email" text;--> statement-breakpoint
ALTER TABLE "invoice_runs" ADD CONSTRAINT "invoice_runs_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;